"use client";

import { useState, type FormEvent } from "react";
import type { Locale } from "@/lib/i18n/messages";
import { verifyMessages } from "@/lib/verification/verify-messages";
import type { VerificationReport } from "@/lib/verification/verification-report";
import { VerificationReportView } from "./verification-report-view";

export function VerifyUploadForm({ locale, timeZone }: { locale: Locale; timeZone?: string }) {
  const t = verifyMessages[locale];
  const [report, setReport] = useState<VerificationReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setReport(null);
    try {
      const response = await fetch("/api/verify", { method: "POST", body: new FormData(event.currentTarget) });
      const body = await response.json().catch(() => null);
      if (response.ok && body?.success) setReport(body as VerificationReport);
      else setError(body?.message ?? t.error);
    } catch {
      setError(t.error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <h1>{t.title}</h1>
      <p className="muted">{t.intro}</p>
      <form className="stack" onSubmit={onSubmit}>
        <div>
          <label htmlFor="verify-file">{t.file}</label>
          <input id="verify-file" name="file" type="file" accept="application/pdf,.pdf" required />
        </div>
        <button className="button" type="submit" disabled={busy}>{busy ? t.busy : t.submit}</button>
      </form>
      <div aria-live="polite" className="stack">
        {error && <p className="alert" role="alert">{error}</p>}
        {report && <VerificationReportView report={report} t={t} locale={locale} timeZone={timeZone} />}
      </div>
    </>
  );
}
