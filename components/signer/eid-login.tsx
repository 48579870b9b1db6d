"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { isEidFailureReason } from "@/lib/identity-assurance/eid/eid-failure";
import { postJson } from "./call-signer-api";
import { signerTranslator, type SignerLocale } from "./signer-messages";
import { HydrationGate } from "@/components/ui/hydrated-form";

type Props = { locale: SignerLocale; api: string; providerName: string | null; attemptsLeft: number; outcome: string | null };

/** Our extension (signChallenges eid): the signer identifies at the organization's OpenID Connect provider. */
export function EidLogin({ locale, api, providerName, attemptsLeft, outcome }: Props) {
  const t = signerTranslator(locale);
  const router = useRouter();
  const [going, setGoing] = useState(false);
  const [problem, setProblem] = useState<string | null>(outcome && isEidFailureReason(outcome) ? t(`eid.failed.${outcome}`) : null);
  const provider = providerName ?? "";

  const start = async () => {
    setGoing(true);
    setProblem(null);
    const answer = await postJson(`${api}/eid`, {});
    if (answer.ok && typeof answer.body.url === "string") return window.location.assign(answer.body.url);
    setGoing(false);
    if (answer.status === 0) return setProblem(t("error.network"));
    const reason = String(answer.body.reason ?? "").replace(/^eid_/, "");
    if (isEidFailureReason(reason)) return setProblem(t(`eid.failed.${reason}`));
    router.refresh(); // locked, expired, …: the page shows why
  };

  return (
    <HydrationGate>
      <section className="signer-card card stack" aria-labelledby="eid-title" data-testid="eid-step">
        <h1 id="eid-title">{t("eid.title")}</h1>
        {providerName ? <p>{t("eid.lead", { provider })}</p> : <p className="alert" role="alert">{t("eid.noProvider")}</p>}
        {problem && (
          <p className="alert" role="alert" data-testid="eid-problem">
            {problem}
          </p>
        )}
        <p className="muted" data-testid="eid-attempts">
          {t("eid.attemptsLeft", { count: attemptsLeft })}
        </p>
        {providerName && (
          <button type="button" className="button button-block" onClick={start} disabled={going}>
            {going ? t("eid.going", { provider }) : t("eid.button", { provider })}
          </button>
        )}
      </section>
    </HydrationGate>
  );
}
