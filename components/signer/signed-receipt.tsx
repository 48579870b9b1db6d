import type { SignerReceipt } from "@/lib/signers/find-signer-receipt";
import { signerTranslator, type SignerLocale } from "./signer-messages";

/** The result page: signed copies to download and whether others must still sign. */
export function SignedReceipt({ locale, receipt, api }: { locale: SignerLocale; receipt: SignerReceipt; api: string }) {
  const t = signerTranslator(locale);
  const pending = receipt.pendingSigners;
  return (
    <section className="signer-card card stack" data-testid="signed-receipt" aria-labelledby="done-title">
      <h1 id="done-title" className="success-title">
        <span aria-hidden="true">✓ </span>
        {t("done.title")}
      </h1>
      <p data-testid="pending-signers" data-pending={pending}>
        {pending === 0 ? t("done.complete") : pending === 1 ? t("done.pendingOne") : t("done.pending", { n: pending })}
      </p>
      <ul className="download-list">
        {receipt.documents.map((d) => (
          <li key={d.id}>
            <span className="doc-name">{d.name}</span>
            <a className="button" href={`${api}/documents/${d.id}?download=1`} download>
              {t("done.download")} <span className="visually-hidden">{d.name}</span>
            </a>
          </li>
        ))}
      </ul>
      <p className="muted">{t("done.close")}</p>
    </section>
  );
}
