import { signerTranslator, type SignerLocale } from "./signer-messages";

export function WaitForTurn({ locale }: { locale: SignerLocale }) {
  const t = signerTranslator(locale);
  return (
    <section className="signer-card card stack" data-reason="not_your_turn" aria-labelledby="wait-title">
      <h1 id="wait-title">{t("wait.title")}</h1>
      <p>{t("wait.text")}</p>
    </section>
  );
}
