"use client";

import { useState, useTransition } from "react";
import type { Locale } from "@/lib/i18n/messages";
import { translatorFor } from "@/components/ui/use-translator";
import { importAgentAction } from "@/app/(staff)/certificates/actions";

export function ImportAgentForm({ locale }: { locale: Locale }) {
  const t = translatorFor(locale);
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        start(async () => {
          const result = await importAgentAction(form);
          setMessage({ ok: result.ok, text: result.message });
        });
      }}
    >
      <h3>{t("certs.importAgent")}</h3>
      <div className="grid-2">
        <div>
          <label htmlFor="agent-p12">{t("certs.p12File")}</label>
          <input id="agent-p12" name="p12_file" type="file" accept=".p12,.pfx,application/x-pkcs12" required />
        </div>
        <div>
          <label htmlFor="agent-password">{t("certs.p12Password")}</label>
          <input id="agent-password" name="p12_password" type="password" autoComplete="off" />
        </div>
      </div>
      <button type="submit" className="button button-secondary" disabled={pending}>{t("certs.import")}</button>
      {message && <p role="status" className={message.ok ? "notice" : "alert"}>{message.text}</p>}
    </form>
  );
}
