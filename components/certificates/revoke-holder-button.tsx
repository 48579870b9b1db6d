"use client";

import { useState, useTransition } from "react";
import type { Locale } from "@/lib/i18n/messages";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { translatorFor } from "@/components/ui/use-translator";
import { revokeHolderAction } from "@/app/(staff)/certificates/actions";

export function RevokeHolderButton({ holderId, username, locale }: { holderId: string; username: string; locale: Locale }) {
  const t = translatorFor(locale);
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <ConfirmButton
        label={t("api.revoke")}
        title={`${t("api.revokeTitle")} ${username}?`}
        text={t("certs.revokeText")}
        confirmLabel={t("api.revoke")}
        cancelLabel={t("common.cancel")}
        disabled={pending}
        onConfirm={() => start(async () => {
          const result = await revokeHolderAction({ holderId });
          setError(result.ok ? null : result.message);
        })}
      />
      {error && <span className="field-error" role="alert">{error}</span>}
    </>
  );
}
