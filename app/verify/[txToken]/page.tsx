import { getServices } from "@/lib/runtime/services";
import { describeTransaction } from "@/lib/stamp-signing/describe-transaction";
import { getTranslator } from "@/lib/i18n/get-translator";

export const dynamic = "force-dynamic";

const text = {
  es: { title: "Verificación de firma", notFound: "No existe una firma con este código de transacción.", signer: "Firmante", id: "Documento de identidad", when: "Fecha y hora", type: "Tipo de firma", org: "Organización", hash: "SHA-256 del PDF firmado", status: "Estado", done: "Firmado", pending: "En proceso", failed: "No se completó", level: "Nivel PAdES medido al firmar", note: "Compare la huella SHA-256 con la de su copia: si coinciden, su documento es el que se firmó." },
  en: { title: "Signature verification", notFound: "There is no signature with this transaction code.", signer: "Signer", id: "Identity document", when: "Date and time", type: "Signature type", org: "Organization", hash: "SHA-256 of the signed PDF", status: "Status", done: "Signed", pending: "Processing", failed: "Not completed", level: "PAdES level measured at signing", note: "Compare the SHA-256 fingerprint with your copy's: if they match, your document is the one that was signed." },
} as const;

/** Public page the stamp's QR points to: what was signed, by whom and when, without the document. */
export default async function VerifyTransactionPage({ params, searchParams }: { params: Promise<{ txToken: string }>; searchParams: Promise<{ org?: string | string[] }> }) {
  const { txToken } = await params;
  const { org } = await searchParams;
  const { locale } = await getTranslator();
  const t = text[locale];
  const { db } = await getServices();
  const description = await describeTransaction({ txToken, organizationDomain: typeof org === "string" ? org : undefined }, db);
  return (
    <main className="auth-page">
      <div className="card auth-card stack" style={{ maxWidth: "36rem" }}>
        <span className="brand">FirmaViva</span>
        <h1>{t.title}</h1>
        {!description ? (
          <p className="alert" role="alert">{t.notFound}</p>
        ) : (
          <>
            <dl className="facts">
              <dt>{t.status}</dt>
              <dd data-testid="verify-status">{t[description.status]}</dd>
              <dt>{t.signer}</dt>
              <dd>{[description.signer.names, description.signer.lastNames].filter(Boolean).join(" ") || "—"}</dd>
              <dt>{t.id}</dt>
              <dd>{description.signer.personId ? `${description.signer.personIdType}: ${description.signer.personId} (${description.signer.nationality})` : "—"}</dd>
              <dt>{t.type}</dt>
              <dd>{description.signType}</dd>
              <dt>{t.org}</dt>
              <dd>{description.organization}</dd>
              <dt>{t.when}</dt>
              <dd>{description.signedAt ? description.signedAt.toLocaleString(locale === "es" ? "es-PE" : "en-US", { timeZone: "America/Lima", timeZoneName: "short" }) : "—"}</dd>
              <dt>{t.level}</dt>
              <dd data-testid="verify-pades-level">{description.padesLevel ?? "—"}</dd>
              <dt>{t.hash}</dt>
              <dd><code data-testid="verify-sha256">{description.sha256 ?? "—"}</code></dd>
            </dl>
            <p className="muted">{t.note}</p>
          </>
        )}
      </div>
    </main>
  );
}
