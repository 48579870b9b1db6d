import type { SignerReceipt } from "@/lib/signers/find-signer-receipt";
import type { SignerRefusal } from "@/lib/signers/signer-flow-error";
import { SignedReceipt } from "./signed-receipt";
import { signerTranslator, type SignerLocale, type SignerMessageKey } from "./signer-messages";

const known = ["unknown_link", "link_replaced", "link_expired", "process_expired", "process_rejected", "process_completed", "approval_pending", "already_signed", "signer_rejected", "locked", "identity_under_review"];

/** Why the link does not open the signing flow, and what the signer can do about it. */
export function LinkProblem({ locale, reason, receipt, api }: { locale: SignerLocale; reason: SignerRefusal; receipt: SignerReceipt | null; api: string }) {
  if (receipt) return <SignedReceipt locale={locale} receipt={receipt} api={api} />;
  const t = signerTranslator(locale);
  const key = known.includes(reason) ? reason : "other";
  return (
    <section className="signer-card card stack" data-reason={reason} aria-labelledby="problem-title">
      <h1 id="problem-title">{t(`problem.${key}.title` as SignerMessageKey)}</h1>
      <p>{t(`problem.${key}.text` as SignerMessageKey)}</p>
      {reason === "locked" && <p className="notice-warn">{t("problem.locked.help")}</p>}
    </section>
  );
}
