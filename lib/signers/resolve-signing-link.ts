import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, processes, processLinks, processSigners } from "@/db/schema";
import { expireDueProcesses } from "@/lib/processes/expire-due-processes";
import { hashLinkToken } from "@/lib/processes/link-token";
import { SignerFlowError } from "./signer-flow-error";

export type SignerRow = typeof processSigners.$inferSelect;
export type SigningContext = Awaited<ReturnType<typeof resolveSigningLink>>;

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The link, process, organization and signers behind a signing-link token, or the reason it no
 * longer works. With `lock`, the process row is locked for the caller's transaction (by the
 * statement that reads it).
 */
export async function resolveSigningLink({ token, lock = false }: { token: string; lock?: boolean }, db: Db) {
  if (!TOKEN.test(token)) throw new SignerFlowError("unknown_link");
  const find = () => {
    const query = db
      .select({ link: processLinks, process: processes, organization: organizations })
      .from(processLinks)
      .innerJoin(processes, eq(processLinks.processId, processes.id))
      .innerJoin(organizations, eq(processes.organizationId, organizations.id))
      .where(eq(processLinks.tokenHash, hashLinkToken(token)))
      .limit(1);
    // locked in the same statement: only the process row, and the row as it is once the lock is held
    return lock ? query.for("no key update", { of: processes }) : query;
  };
  let [row] = await find();
  if (!row) throw new SignerFlowError("unknown_link");
  if (row.process.status === "pending" && row.process.expireAt.getTime() <= Date.now()) {
    await expireDueProcesses({ organizationId: row.process.organizationId, processId: row.process.id }, db);
    [row] = await find();
  }
  const { link, process } = row;
  if (process.status === "expired") throw new SignerFlowError("process_expired");
  if (process.status === "rejected") throw new SignerFlowError("process_rejected");
  if (process.status === "signed") throw new SignerFlowError("process_completed");
  if (process.status === "approval_pending") throw new SignerFlowError("approval_pending");
  if (link.revokedAt) throw new SignerFlowError("link_replaced");
  if (link.expiresAt.getTime() <= Date.now()) throw new SignerFlowError("link_expired");
  const signers = await db
    .select()
    .from(processSigners)
    .where(and(eq(processSigners.processId, process.id), eq(processSigners.organizationId, process.organizationId)))
    .orderBy(asc(processSigners.position));
  return { ...row, signers, identityRequired: process.readChallenges.includes("signerId") };
}

/** The next signer when the process has a sign order (lowest position still pending). */
export function nextSigner(signers: SignerRow[]): SignerRow | undefined {
  return signers.find((s) => s.status === "pending");
}

/**
 * The signer acting through this link: a per-signer link names them; on a shared link they are
 * the signer who typed their ID number, or, when no ID is asked (readChallenges []), the next one.
 */
export function actingSigner(context: SigningContext, signerId?: string): SignerRow {
  const { link, signers, identityRequired } = context;
  const id = link.signerId ?? signerId ?? (identityRequired ? undefined : nextSigner(signers)?.id);
  const signer = signers.find((s) => s.id === id);
  if (!signer || (link.signerId && signerId && signerId !== link.signerId)) throw new SignerFlowError(identityRequired ? "identity_required" : "unknown_link");
  if (signer.status === "signed") throw new SignerFlowError("already_signed");
  if (signer.status === "rejected") throw new SignerFlowError("signer_rejected");
  if (signer.lockedAt) throw new SignerFlowError("locked");
  if (identityRequired && !signer.identityVerifiedAt) throw new SignerFlowError("identity_required");
  return signer;
}
