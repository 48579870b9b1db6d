import { LanguageSwitch } from "@/components/layout/language-switch";
import type { SignerPageState, SignerStage } from "@/lib/signers/load-signer-page";
import { signerTranslator, type SignerLocale } from "./signer-messages";

type Summary = { organizationName: string; description: string; signers: { position: number; alias: string; status: string }[]; signerAlias?: string } | null;

/**
 * Header (organization, language), progress through this signer's own stages (no facial stage for
 * a signer without that challenge, an eID stage for one who logs in at the provider; none while a
 * shared link's signers differ), and the help line every page ends with.
 */
export function SignerShell({ locale, step, stages, summary, children }: { locale: SignerLocale; step: SignerPageState["step"]; stages: SignerStage[] | null; summary: Summary; children: React.ReactNode }) {
  const t = signerTranslator(locale);
  const shown = stages ?? [];
  // an eID signer confirms the names the provider gave after logging in there: still the eID stage
  const current = step === "names" && shown.includes("eid") ? "eid" : step === "auto-identify" || step === "names" ? "identify" : step === "wait" ? "read" : step;
  const index = shown.indexOf(current as SignerStage);
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
          <ol className="signer-steps" aria-label={`${t("stepOf")} ${index + 1}/${shown.length}`}>
            {shown.map((name, i) => (
              <li key={name} aria-current={i === index ? "step" : undefined} className={i < index ? "done" : i === index ? "current" : undefined}>
                {t(`steps.${name}`)}
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
