"use client";

import { useEffect, useState } from "react";
import { useRouter } from "next/navigation";
import { postJson } from "./call-signer-api";
import { signerTranslator, type SignerLocale } from "./signer-messages";

/** Links that name their signer (readChallenges []): start the signer session without asking anything. */
export function AutoIdentify({ locale, api }: { locale: SignerLocale; api: string }) {
  const t = signerTranslator(locale);
  const router = useRouter();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let active = true;
    postJson(`${api}/session`, {}).then((answer) => {
      if (!active) return;
      if (answer.status === 0) setFailed(true);
      else router.refresh();
    });
    return () => {
      active = false;
    };
  }, [api, router]);
  return (
    <section className="signer-card card stack" aria-busy={!failed}>
      <p role="status">{failed ? t("error.network") : t("identify.auto")}</p>
      {failed && (
        <button type="button" className="button" onClick={() => window.location.reload()}>
          {t("reload")}
        </button>
      )}
    </section>
  );
}
