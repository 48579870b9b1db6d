"use client";

import { useTransition } from "react";
import type { Locale } from "@/lib/i18n/messages";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { translatorFor } from "@/components/ui/use-translator";
import { unlockSignerAction } from "@/app/(staff)/processes/actions";
import { useReportSignerChange } from "./signer-changes";

/** Unlocks a signer locked by failed identity tries, after a confirmation; the server checks identity:review again. */
export function UnlockSignerButton({ processId, signerId, label, locale }: { processId: string; signerId: string; label: string; locale: Locale }) {
  const t = translatorFor(locale);
  const report = useReportSignerChange();
  const [pending, start] = useTransition();
  const unlock = () =>
    start(async () => {
      const result = await unlockSignerAction({ processId, signerId });
      report(result.ok ? { ok: true, text: t("detail.unlocked").replace("{id}", label) } : { ok: false, text: result.message });
    });
  return (
    <ConfirmButton
      label={t("detail.unlock")}
      title={t("detail.unlockTitle").replace("{id}", label)}
      text={t("detail.unlockText")}
      confirmLabel={t("detail.unlockConfirm")}
      cancelLabel={t("common.cancel")}
      onConfirm={unlock}
      disabled={pending}
    />
  );
}
