"use client";

import { useState, useTransition } from "react";
import type { Locale } from "@/lib/i18n/messages";
import { fillMessage } from "@/lib/i18n/fill-message";
import { translatorFor } from "@/components/ui/use-translator";
import { resetStaffPasswordAction } from "@/app/(staff)/organization/actions";

/** The owner gives a staff member a new password (for a forgotten one); their sessions end. */
export function ResetPasswordForm({ userId, email, locale }: { userId: string; email: string; locale: Locale }) {
  const [pending, start] = useTransition();
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const t = translatorFor(locale);
  const label = fillMessage(t("org.newPasswordFor"), { email });
  return (
    <form
      className="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const newPassword = String(new FormData(form).get("newPassword"));
        start(async () => {
          const outcome = await resetStaffPasswordAction({ userId, newPassword });
          setResult(outcome);
          if (outcome.ok) form.reset();
        });
      }}
    >
      <input name="newPassword" type="password" aria-label={label} placeholder={t("org.newPassword")} autoComplete="new-password" minLength={12} required />
      <button className="button button-secondary" type="submit" disabled={pending}>{t("org.resetPassword")}</button>
      {result && <span className={result.ok ? "muted" : "field-error"} role={result.ok ? "status" : "alert"}>{result.message}</span>}
    </form>
  );
}
