import type { SignerIdentity } from "@/lib/identity-assurance/identity-level";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditLog, organizations, signerPageViews } from "@/db/schema";
import { getProcessDetail } from "@/lib/processes/get-process-detail";

export type EvidenceClient = { address: string; userAgent: string };
type At = { at: Date };

/** What the summary says about one signer: who, from which devices, what was checked, shown and signed, and when. */
export type SignerEvidence = {
  position: number;
  alias: string;
  person: string;
  status: string;
  signedAt: Date | null;
  sessions: (At & { method: string; client?: EvidenceClient; /** The signer session (cookie) this opened. */ session?: string })[];
  identityChecks: (At & { result: "verified" | "failed"; attempt?: number })[];
  facialTries: (At & { attempt?: number; result: boolean; reference?: string; idNumberSource?: string; challenge?: string; live?: boolean; livenessReasons?: string[]; score?: number; threshold?: number; client?: EvidenceClient })[];
  pagesShown: { documentId: string; documentName: string; pages: { pageIndex: number; at: Date; client: EvidenceClient }[] }[];
  /** provedIn / signedIn: the signer session that proved the identity and the one that signed (the same). */
  signature: (At & { client?: EvidenceClient; provedIn?: string; signedIn?: string }) | null;
  declined: (At & { reason?: string }) | null;
  /** The identity level the signature carries (or proven so far), and the staff reviews of a self-supplied ID photo. */
  identity: SignerIdentity | null;
  reviews: (At & { decision: "requested" | "approved" | "rejected" | "sign_requested"; by?: string; reason?: string; /** Approved by the process's creator, the organization's only reviewer. */ soleReviewer?: boolean })[];
};

export type ProcessEvidence = {
  organizationName: string;
  process: { id: string; description: string; status: string; createdAt: Date; createdBy: string; completedAt: Date | null };
  documents: { id: string; name: string; pages: number; originalSha256: string; currentSha256: string }[];
  signers: SignerEvidence[];
  /** The organization's audit entries about this process, with their chained hashes. */
  audit: { id: number; at: Date; actor: string; action: string; hash: string }[];
  generatedAt: Date;
};

const sessionsOf = (detail: Record<string, unknown>): { provedIn?: string; signedIn?: string } => {
  const sessions = (detail.sessions ?? {}) as { provedIn?: unknown; signedIn?: unknown };
  return { provedIn: optional<string>(sessions.provedIn, "string"), signedIn: optional<string>(sessions.signedIn, "string") };
};

const clientOf = (detail: Record<string, unknown>): EvidenceClient | undefined => {
  const client = detail.client as Partial<EvidenceClient> | undefined;
  return client && typeof client.address === "string" && typeof client.userAgent === "string" ? { address: client.address, userAgent: client.userAgent } : undefined;
};
const reviewDecisions: Record<string, SignerEvidence["reviews"][number]["decision"] | undefined> = {
  identity_review_requested: "requested",
  identity_review_approved: "approved",
  identity_review_rejected: "rejected",
  sign_requested: "sign_requested",
};
const optional = <T>(value: unknown, type: "string" | "number" | "boolean") => (typeof value === type ? (value as T) : undefined);

/**
 * Everything recorded about one process of the organization that a dispute may ask for: its files
 * (with hashes), and for each signer the devices, identity and facial checks, pages shown with
 * their times, and the signature; plus the audit entries. Another organization's id is not found.
 */
export async function collectProcessEvidence(input: { organizationId: string; processId: string }, db: Db): Promise<ProcessEvidence> {
  const detail = await getProcessDetail(input, db);
  const { process, documents, signers, events } = detail;
  const [[organization], views, audit] = await Promise.all([
    db.select({ name: organizations.displayName }).from(organizations).where(eq(organizations.id, input.organizationId)),
    db
      .select()
      .from(signerPageViews)
      .where(and(eq(signerPageViews.processId, process.id), eq(signerPageViews.organizationId, input.organizationId)))
      .orderBy(asc(signerPageViews.shownAt), asc(signerPageViews.id)),
    db
      .select({ id: auditLog.id, at: auditLog.occurredAt, actor: auditLog.actor, action: auditLog.action, hash: auditLog.hash })
      .from(auditLog)
      .where(and(eq(auditLog.organizationId, input.organizationId), eq(auditLog.target, process.id)))
      .orderBy(asc(auditLog.id)),
  ]);
  const documentName = new Map(documents.map((d) => [d.id, d.name]));
  const signerEvidence = signers
    .slice()
    .sort((a, b) => a.position - b.position)
    .map((signer): SignerEvidence => {
      const mine = events.filter((e) => e.signerId === signer.id);
      const signed = mine.filter((e) => e.kind === "signed").at(-1);
      const declined = mine.filter((e) => e.kind === "declined").at(-1);
      const byDocument = new Map<string, SignerEvidence["pagesShown"][number]>();
      for (const view of views.filter((v) => v.signerId === signer.id)) {
        const entry = byDocument.get(view.documentId) ?? { documentId: view.documentId, documentName: documentName.get(view.documentId) ?? view.documentId, pages: [] };
        entry.pages.push({ pageIndex: view.pageIndex, at: view.shownAt, client: { address: view.address, userAgent: view.userAgent } });
        byDocument.set(view.documentId, entry);
      }
      return {
        position: signer.position,
        alias: signer.signerAlias,
        person: `${signer.nat} ${signer.docId}`,
        status: signer.status,
        signedAt: signer.signedAt,
        sessions: mine.filter((e) => e.kind === "session_started").map((e) => ({ at: e.createdAt, method: String(e.detail.method ?? ""), client: clientOf(e.detail), session: optional<string>(e.detail.session, "string") })),
        identityChecks: mine
          .filter((e) => e.kind === "identity_verified" || e.kind === "identity_failed")
          .map((e) => ({ at: e.createdAt, result: e.kind === "identity_verified" ? "verified" : "failed", attempt: optional<number>(e.detail.attempt, "number") })),
        facialTries: mine
          .filter((e) => e.kind === "facial_recorded")
          .map((e) => ({
            at: e.createdAt,
            attempt: optional<number>(e.detail.attempt, "number"),
            result: e.detail.result === true,
            reference: optional<string>(e.detail.reference, "string"),
            idNumberSource: optional<string>((e.detail.idDocument as { numberSource?: unknown } | undefined)?.numberSource, "string"),
            challenge: Array.isArray(e.detail.challenges) ? e.detail.challenges.map(String).join(", ") : optional<string>(e.detail.challenge, "string"),
            live: optional<boolean>(e.detail.live, "boolean"),
            livenessReasons: Array.isArray(e.detail.livenessReasons) ? e.detail.livenessReasons.map(String) : undefined,
            score: optional<number>(e.detail.score, "number"),
            threshold: optional<number>(e.detail.threshold, "number"),
            client: clientOf(e.detail),
          })),
        pagesShown: [...byDocument.values()].map((d) => ({ ...d, pages: d.pages.sort((a, b) => a.pageIndex - b.pageIndex) })),
        signature: signed ? { at: signed.createdAt, client: clientOf(signed.detail), ...sessionsOf(signed.detail) } : null,
        declined: declined ? { at: declined.createdAt, reason: optional<string>(declined.detail.reason, "string") } : null,
        identity: signer.signData.identity ?? signer.identity ?? null,
        reviews: mine
          .filter((e) => reviewDecisions[e.kind] !== undefined)
          .map((e) => ({ at: e.createdAt, decision: reviewDecisions[e.kind]!, by: e.actor ?? undefined, reason: optional<string>(e.detail.reason, "string"), soleReviewer: e.detail.soleReviewerException === true || undefined })),
      };
    });
  return {
    organizationName: organization?.name ?? "",
    process: { id: process.id, description: process.description, status: process.status, createdAt: process.createdAt, createdBy: process.createdByName, completedAt: process.completedAt },
    documents: documents.map((d) => ({ id: d.id, name: d.name, pages: d.pages, originalSha256: d.originalSha256, currentSha256: d.sha256 })),
    signers: signerEvidence,
    audit,
    generatedAt: new Date(),
  };
}
