"use client";

import { useEffect, useState } from "react";
import type { Locale } from "@/lib/i18n/messages";
import { translatorFor } from "@/components/ui/use-translator";

type Props = { locale: Locale };
type Stamped = { url: string; name: string };

/** "Sello de tiempo": any file up, the built-in TSA's .tsr for its SHA-256 down. */
export function TimeStampForm({ locale }: Props) {
  const t = translatorFor(locale);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [stamped, setStamped] = useState<Stamped | null>(null);

  useEffect(() => () => void (stamped && URL.revokeObjectURL(stamped.url)), [stamped]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setStamped(null);
    if (!file) return setError(t("stamp.needFile"));
    setError(null);
    setBusy(true);
    try {
      const form = new FormData();
      form.append("file", file, file.name);
      const response = await fetch("/api/dashboard/stamp/time-stamp", { method: "POST", body: form });
      if (response.ok) {
        const blob = await response.blob();
        setStamped({ url: URL.createObjectURL(blob), name: `${file.name}.tsr` });
      } else {
        const answer = (await response.json().catch(() => ({}))) as { message?: string };
        setError(answer.message ?? `HTTP ${response.status}`);
      }
    } catch {
      setError(t("stamp.network"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="stack" onSubmit={submit} noValidate data-testid="time-stamp-form">
      <p className="muted">{t("stamp.timeStampHelp")}</p>
      <div>
        <label htmlFor="tsa_file">{t("stamp.anyFile")}</label>
        <input id="tsa_file" type="file" onChange={(e) => { setFile(e.target.files?.[0] ?? null); setStamped(null); setError(null); }} aria-invalid={!!error} />
        {error && <p className="field-error" role="alert">{error}</p>}
      </div>
      <div className="row wrap">
        <button className="button button-secondary" type="submit" disabled={busy}>{busy ? t("stamp.gettingTsr") : t("stamp.getTsr")}</button>
        {stamped && <a href={stamped.url} download={stamped.name} data-testid="tsr-download">{t("stamp.downloadTsr")}</a>}
      </div>
    </form>
  );
}
