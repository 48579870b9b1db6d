import { getServices } from "@/lib/runtime/services";
import { describeTransaction } from "@/lib/stamp-signing/describe-transaction";
import { getTranslator } from "@/lib/i18n/get-translator";

export const dynamic = "force-dynamic";


/** Public page the stamp's QR points to: what was signed, by whom and when, without the document. */
export default async function VerifyTransactionPage({ params, searchParams }: { params: Promise<{ txToken: string }>; searchParams: Promise<{ org?: string | string[] }> }) {
  const { txToken } = await params;
  const { org } = await searchParams;
  const { locale, t } = await getTranslator();
  const { db } = await getServices();
  const description = await describeTransaction({ txToken, organizationDomain: typeof org === "string" ? org : undefined }, db);
  return (
    <main className="auth-page">
      <div className="card auth-card stack" style={{ maxWidth: "36rem" }}>
        <span className="brand">FirmaViva</span>
        <h1>{t("transaction.title")}</h1>
        {!description ? (
          <p className="alert" role="alert">{t("transaction.notFound")}</p>
        ) : (
          <>
            <dl className="facts">
              <dt>{t("transaction.status")}</dt>
              <dd data-testid="verify-status">{t(`transaction.${description.status}`)}</dd>
              <dt>{t("transaction.signer")}</dt>
              <dd>{[description.signer.names, description.signer.lastNames].filter(Boolean).join(" ") || "—"}</dd>
              <dt>{t("transaction.id")}</dt>
              <dd>{description.signer.personId ? `${description.signer.personIdType}: ${description.signer.personId} (${description.signer.nationality})` : "—"}</dd>
              <dt>{t("transaction.type")}</dt>
              <dd>{description.signType}</dd>
              <dt>{t("transaction.org")}</dt>
              <dd>{description.organization}</dd>
              <dt>{t("transaction.when")}</dt>
              <dd>{description.signedAt ? description.signedAt.toLocaleString(locale === "es" ? "es-PE" : "en-US", { timeZone: "America/Lima", timeZoneName: "short" }) : "—"}</dd>
              <dt>{t("transaction.level")}</dt>
              <dd data-testid="verify-pades-level">{description.padesLevel ?? "—"}</dd>
              <dt>{t("transaction.hash")}</dt>
              <dd><code data-testid="verify-sha256">{description.sha256 ?? "—"}</code></dd>
            </dl>
            <p className="muted">{t("transaction.note")}</p>
          </>
        )}
      </div>
    </main>
  );
}
