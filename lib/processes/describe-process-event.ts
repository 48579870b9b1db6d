import type { ProcessEventRow } from "./get-process-detail";
import type { SignerRow } from "./load-process-records";
import type { MessageKey } from "@/lib/i18n/messages";
import { fillMessage } from "@/lib/i18n/fill-message";

type Translate = (key: MessageKey) => string;

/** The signer as staff recognize them: alias, else ID type name and number. */
export function signerName(signer: Pick<SignerRow, "nat" | "docId" | "signerAlias">, t: Translate): string {
  const natKey = `nat.${signer.nat}` as MessageKey;
  const idType = natKey in natNames ? t(natKey) : signer.nat;
  return signer.signerAlias ? `${signer.signerAlias} (${idType} ${signer.docId})` : `${idType} ${signer.docId}`;
}
const natNames = { "nat.PER": 1, "nat.CHL": 1, "nat.PERPASS": 1, "nat.PERCE": 1 };

const count = (value: unknown) => (Array.isArray(value) ? value.length : typeof value === "number" ? value : 0);
const score = (value: unknown) => (typeof value === "number" ? value.toFixed(2) : "—");

/** One sentence per timeline event: who did what (the time is shown beside it). */
export function describeProcessEvent(event: ProcessEventRow, signers: SignerRow[], t: Translate): string {
  const detail = event.detail as Record<string, unknown>;
  const signer = signers.find((s) => s.id === event.signerId);
  const values = {
    who: event.actor || t("event.system"),
    signer: signer ? signerName(signer, t) : t("event.someone"),
  };
  const say = (key: MessageKey, extra: Record<string, string | number> = {}) => fillMessage(t(key), { ...values, ...extra });
  switch (event.kind) {
    case "created":
      return say(detail.status === "approval_pending" ? "event.createdForApproval" : "event.created");
    case "modified":
      return say("event.modified", { signers: count(detail.signers), removed: count(detail.removed) });
    case "approved":
      return say("event.approved");
    case "links_issued":
      return say("event.links_issued", { links: count(detail.links), queued: count(detail.queued) });
    case "notified":
      return say("event.notified", { channel: detail.channel === "whatsapp" ? t("channel.whatsapp") : t("channel.email") });
    case "identity_verified":
      return say("event.identity_verified");
    case "session_started":
      return say("event.session_started");
    case "names_confirmed":
      return say("event.names_confirmed");
    case "identity_failed":
      return say("event.identity_failed", { attempt: count(detail.attempt) });
    case "facial_recorded":
      return say(detail.result ? "event.facialPassed" : "event.facialFailed", { score: score(detail.score), attempt: count(detail.attempt) });
    case "signer_unlocked":
      return say("event.signer_unlocked", { attempts: count(detail.newFacialAttempts) });
    case "eid_recorded":
      return detail.result
        ? say("event.eidPassed", { provider: String(detail.issuer ?? ""), attempt: count(detail.attempt) })
        : say("event.eidFailed", { reason: String(detail.reason ?? ""), attempt: count(detail.attempt) });
    case "signed":
      return say("event.signed", { documents: count(detail.documents) });
    case "declined":
      return say("event.declined", { reason: typeof detail.reason === "string" ? detail.reason : "" });
    case "completed":
      return say(event.actor ? "event.completedBy" : "event.completed");
    case "rejected":
      return say(signer && !event.actor ? "event.rejectedBySigner" : "event.rejected");
    case "expired":
      return say("event.expired");
    case "callback_requeued":
      return say("event.callback_requeued", { outboxId: count(detail.outboxId) });
    case "identity_review_requested":
      return say("event.identity_review_requested", { attempt: count(detail.attempt) });
    case "identity_review_approved":
      return say("event.identity_review_approved");
    case "identity_review_rejected":
      return say("event.identity_review_rejected", { reason: typeof detail.reason === "string" ? detail.reason : "" });
    case "sign_requested":
      return say("event.sign_requested");
    default:
      return say("event.unknown");
  }
}
