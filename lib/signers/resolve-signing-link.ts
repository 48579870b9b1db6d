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
  const tokenHash = hashLinkToken(token);
  const find = () => (lock ? findLocked(tokenHash, db) : findWithSigners(tokenHash, db));
  let found = await find();
  if (!found) throw new SignerFlowError("unknown_link");
  if (found.process.status === "pending" && found.process.expireAt.getTime() <= Date.now()) {
    await expireDueProcesses({ organizationId: found.process.organizationId, processId: found.process.id }, db);
    found = await find();
    if (!found) throw new SignerFlowError("unknown_link");
  }
  const { link, process } = found;
  if (process.status === "expired") throw new SignerFlowError("process_expired");
  if (process.status === "rejected") throw new SignerFlowError("process_rejected");
  if (process.status === "signed") throw new SignerFlowError("process_completed");
  if (process.status === "approval_pending") throw new SignerFlowError("approval_pending");
  if (link.revokedAt) throw new SignerFlowError("link_replaced");
  if (link.expiresAt.getTime() <= Date.now()) throw new SignerFlowError("link_expired");
  const signers = found.signers ?? (await signersOf(process, db));
  return { link, process, organization: found.organization, signers, identityRequired: process.readChallenges.includes("signerId") };
}

/**
 * The process row locked for the caller's transaction, by the statement that reads it; its signers
 * are read by a second statement, so they are the rows as they are once the lock is held (a row
 * joined into the locking statement would be the one its snapshot saw before the wait).
 */
async function findLocked(tokenHash: string, db: Db) {
  const [row] = await db
    .select({ link: processLinks, process: processes, organization: organizations })
    .from(processLinks)
    .innerJoin(processes, eq(processLinks.processId, processes.id))
    .innerJoin(organizations, eq(processes.organizationId, organizations.id))
    .where(eq(processLinks.tokenHash, tokenHash))
    .limit(1)
    .for("no key update", { of: processes });
  return row ? { ...row, signers: undefined } : undefined;
}

/** Without a lock, the signers come in the same statement (one row per signer, ordered), from one snapshot. */
async function findWithSigners(tokenHash: string, db: Db) {
  const rows = await db
    .select({ link: processLinks, process: processes, organization: organizations, signer: processSigners })
    .from(processLinks)
    .innerJoin(processes, eq(processLinks.processId, processes.id))
    .innerJoin(organizations, eq(processes.organizationId, organizations.id))
    .leftJoin(processSigners, and(eq(processSigners.processId, processes.id), eq(processSigners.organizationId, processes.organizationId)))
    .where(eq(processLinks.tokenHash, tokenHash))
    .orderBy(asc(processSigners.position));
  if (rows.length === 0) return undefined;
  const { link, process, organization } = rows[0];
  return { link, process, organization, signers: rows.flatMap((row) => (row.signer ? [row.signer] : [])) };
}

function signersOf(process: { id: string; organizationId: string }, db: Db): Promise<SignerRow[]> {
  return db
    .select()
    .from(processSigners)
    .where(and(eq(processSigners.processId, process.id), eq(processSigners.organizationId, process.organizationId)))
    .orderBy(asc(processSigners.position));
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
