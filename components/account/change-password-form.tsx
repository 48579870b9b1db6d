"use client";

import { useState, useTransition } from "react";
import { changePasswordAction } from "@/app/(staff)/account/actions";
import type { Locale } from "@/lib/i18n/messages";
import { translatorFor } from "@/components/ui/use-translator";


export function ChangePasswordForm({ locale }: { locale: Locale }) {
  const t = translatorFor(locale);
  const [pending, start] = useTransition();
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  return (
    <form
      className="stack"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        start(async () => setResult(await changePasswordAction({ currentPassword: String(form.get("currentPassword")), newPassword: String(form.get("newPassword")) })));
      }}
    >
      <h2>{t("account.passwordTitle")}</h2>
      <div>
        <label htmlFor="current-password">{t("account.currentPassword")}</label>
        <input id="current-password" name="currentPassword" type="password" autoComplete="current-password" required />
      </div>
      <div>
        <label htmlFor="new-password">{t("account.newPassword")}</label>
        <input id="new-password" name="newPassword" type="password" autoComplete="new-password" minLength={12} required />
      </div>
      <button className="button" type="submit" disabled={pending}>{t("account.passwordSubmit")}</button>
      {result && (
        <p className={result.ok ? "badge badge-signed" : "alert"} role={result.ok ? "status" : "alert"} style={{ whiteSpace: "normal" }}>
          {result.message} {result.ok && <a href="/login">{t("account.signInAgain")}</a>}
        </p>
      )}
    </form>
  );
}
