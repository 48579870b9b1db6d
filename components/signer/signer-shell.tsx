import { LanguageSwitch } from "@/components/layout/language-switch";
import type { SignerPageState } from "@/lib/signers/load-signer-page";
import { signerTranslator, type SignerLocale } from "./signer-messages";

type Summary = { organizationName: string; description: string; signers: { position: number; alias: string; status: string }[]; signerAlias?: string } | null;

const STEPS = ["identify", "facial", "read"] as const;

/** Header (organization, language), progress through the steps, and the help line every page ends with. */
export function SignerShell({ locale, step, summary, identityStep = "facial", children }: { locale: SignerLocale; step: SignerPageState["step"]; summary: Summary; identityStep?: "facial" | "eid"; children: React.ReactNode }) {
  const t = signerTranslator(locale);
  // an eID signer's second step is the provider login; it comes before the names it fills
  const current = step === "eid" ? "facial" : step === "auto-identify" || step === "names" ? (identityStep === "eid" && step === "names" ? "facial" : "identify") : step === "wait" ? "read" : step;
  const index = STEPS.indexOf(current as (typeof STEPS)[number]);
  return (
    <div className="signer-page">
      <a className="skip-link" href="#content">
        {t("skip")}
      </a>
      <header className="signer-header">
        <span className="brand">{t("brand")}</span>
        <LanguageSwitch />
      </header>
      <main id="content" className="signer-main" tabIndex={-1}>
        {summary && (
          <section className="signer-summary" aria-label={t("from")}>
            <p className="muted">
              {t("from")} <strong>{summary.organizationName}</strong>
            </p>
            {summary.description && <p className="signer-description">{summary.description}</p>}
          </section>
        )}
        {index >= 0 && (
          <ol className="signer-steps" aria-label={`${t("stepOf")} ${index + 1}/3`}>
            {STEPS.map((name, i) => (
              <li key={name} aria-current={i === index ? "step" : undefined} className={i < index ? "done" : i === index ? "current" : undefined}>
                {t(name === "facial" && identityStep === "eid" ? "steps.eid" : `steps.${name}`)}
              </li>
            ))}
          </ol>
        )}
        {children}
        {summary && summary.signers.length > 1 && (
          <details className="signer-list">
            <summary>
              {t("signers")} ({summary.signers.filter((s) => s.status === "signed").length}/{summary.signers.length})
            </summary>
            <ol>
              {summary.signers.map((s) => (
                <li key={s.position}>
                  {s.alias || `#${s.position + 1}`} — {t(s.status === "signed" ? "signer.signed" : s.status === "rejected" ? "signer.rejected" : "signer.pending")}
                </li>
              ))}
            </ol>
          </details>
        )}
      </main>
      <footer className="signer-footer muted">{t("help.contact")}</footer>
    </div>
  );
}
