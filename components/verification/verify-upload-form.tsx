"use client";

import { useState, type FormEvent } from "react";
import type { Locale } from "@/lib/i18n/messages";
import type { SignatureReport, VerificationReport } from "@/lib/verification/verify-pdf-signatures";

const text = {
  es: {
    title: "Verificar un PDF firmado", intro: "Suba un PDF firmado (por esta plataforma u otra herramienta). El archivo se analiza y no se guarda.",
    file: "Archivo PDF firmado", submit: "Verificar", busy: "Verificando…", none: "El documento no contiene firmas.",
    signature: "Firma", timestamp: "Sello de tiempo del documento", valid: "Firma válida", validUntrusted: "Íntegra, pero el certificado no es de nuestra CA",
    invalid: "Firma no válida", signer: "Firmante", when: "Fecha de firma", sourceCms: "según la firma", sourcePdf: "declarada en el PDF, no verificable", sourceTs: "según el sello de tiempo",
    ts: "Sello de tiempo", noTs: "No tiene", tsMismatch: "no corresponde a esta firma", integrity: "Integridad", chain: "Cadena de confianza", trusted: "Emitido por nuestra CA",
    untrusted: "No emitido por nuestra CA", unchecked: "No comprobada (la firma no es válida)", modified: "Modificado después", yes: "Sí: el archivo tiene revisiones posteriores a esta firma (p. ej. otras firmas, sellos o datos de validación)", no: "No",
    intact: "Íntegra: el contenido firmado no cambió", "digest-mismatch": "Falló: el contenido no coincide con la huella firmada", "ranges-invalid": "Falló: la firma deja partes del archivo sin cubrir",
    "signature-invalid": "Falló: la firma criptográfica no es válida", unreadable: "Falló: la firma no se pudo leer", error: "No se pudo verificar el archivo.", sha: "SHA-256 del archivo",
    note: "No se comprueba aquí la revocación ni la vigencia de los certificados.",
  },
  en: {
    title: "Verify a signed PDF", intro: "Upload a signed PDF (from this platform or another tool). The file is analysed and not stored.",
    file: "Signed PDF file", submit: "Verify", busy: "Verifying…", none: "The document has no signatures.",
    signature: "Signature", timestamp: "Document time stamp", valid: "Valid signature", validUntrusted: "Intact, but the certificate is not from our CA",
    invalid: "Invalid signature", signer: "Signer", when: "Signing time", sourceCms: "from the signature", sourcePdf: "stated in the PDF, not verifiable", sourceTs: "from the time stamp",
    ts: "Time stamp", noTs: "None", tsMismatch: "does not match this signature", integrity: "Integrity", chain: "Chain of trust", trusted: "Issued by our CA",
    untrusted: "Not issued by our CA", unchecked: "Not checked (the signature is not valid)", modified: "Modified after", yes: "Yes: the file has revisions after this signature (e.g. other signatures, time stamps or validation data)", no: "No",
    intact: "Intact: the signed content did not change", "digest-mismatch": "Failed: the content does not match the signed digest", "ranges-invalid": "Failed: the signature leaves parts of the file uncovered",
    "signature-invalid": "Failed: the cryptographic signature is not valid", unreadable: "Failed: the signature could not be read", error: "The file could not be verified.", sha: "SHA-256 of the file",
    note: "Certificate revocation and validity dates are not checked here.",
  },
} as const;

type Text = (typeof text)[Locale];

export function VerifyUploadForm({ locale }: { locale: Locale }) {
  const t = text[locale];
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
        {report && <Report report={report} t={t} locale={locale} />}
      </div>
    </>
  );
}

function Report({ report, t, locale }: { report: VerificationReport; t: Text; locale: Locale }) {
  if (report.signatures.length === 0) return <p className="alert" data-testid="verify-report">{t.none}</p>;
  return (
    <section className="stack" data-testid="verify-report">
      {report.signatures.map((signature, i) => <SignatureCard key={i} index={i + 1} signature={signature} t={t} locale={locale} />)}
      <p className="muted">{t.sha}: <code style={{ overflowWrap: "anywhere" }}>{report.sha256}</code></p>
      <p className="muted">{t.note}</p>
    </section>
  );
}

function SignatureCard({ index, signature: s, t, locale }: { index: number; signature: SignatureReport; t: Text; locale: Locale }) {
  const format = (iso: string) => new Date(iso).toLocaleString(locale === "es" ? "es-PE" : "en-US", { timeZone: "America/Lima", timeZoneName: "short" });
  const intact = s.integrity === "intact";
  const verdict = !intact ? t.invalid : s.trusted ? t.valid : t.validUntrusted;
  const source = { cms: t.sourceCms, pdf: t.sourcePdf, timestamp: t.sourceTs };
  return (
    <article className="signer-card stack" data-testid="verify-signature" aria-labelledby={`signature-${index}`}>
      <h2 id={`signature-${index}`} style={{ fontSize: "1.1rem", margin: 0 }}>
        {s.kind === "signature" ? t.signature : t.timestamp} {index}:{" "}
        <span className={intact ? "badge" : "alert"} data-testid="verify-verdict">{verdict}</span>
      </h2>
      <dl className="facts">
        <dt>{t.signer}</dt>
        <dd>{s.signer ?? "—"}</dd>
        <dt>{t.when}</dt>
        <dd>{s.signingTime ? `${format(s.signingTime.at)} (${source[s.signingTime.source]})` : "—"}</dd>
        {s.kind === "signature" && (
          <>
            <dt>{t.ts}</dt>
            <dd>{s.timeStamp ? `${format(s.timeStamp.at)}${s.timeStamp.matchesSignature ? "" : ` — ${t.tsMismatch}`}` : t.noTs}</dd>
          </>
        )}
        <dt>{t.integrity}</dt>
        <dd data-testid="verify-integrity">{t[s.integrity]}</dd>
        <dt>{t.chain}</dt>
        <dd data-testid="verify-chain">{!intact ? t.unchecked : s.trusted ? t.trusted : t.untrusted}</dd>
        <dt>{t.modified}</dt>
        <dd data-testid="verify-modified">{s.modifiedAfter ? t.yes : t.no}</dd>
      </dl>
    </article>
  );
}
