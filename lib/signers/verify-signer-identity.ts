import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processLinks, processSigners } from "@/db/schema";
import { normalizeDocId } from "@/lib/identity-registry/check-national-id";
import { recordProcessEvent } from "@/lib/processes/record-process-event";
import { MAX_ID_ATTEMPTS } from "./open-signing-link";
import { resolveSigningLink } from "./resolve-signing-link";
import { SignerFlowError } from "./signer-flow-error";

/**
 * The signer types their ID number. A shared link finds the signer by it; a per-signer link
 * compares it with its signer. Wrong entries count per signer (per link on shared links, where no
 * signer is known); the fifth locks it (LOCKED).
 */
export async function verifySignerIdentity(
  input: { token: string; nat?: string; docId: string },
  db: Db,
): Promise<{ signerId: string; facialRequired: boolean }> {
  const context = await resolveSigningLink({ token: input.token }, db);
  const { link, process, signers } = context;
  const nat = (input.nat ?? "PER").trim().toUpperCase();
  const docId = normalizeDocId(input.docId);
  const owner = link.signerId ? signers.find((s) => s.id === link.signerId) : undefined;
  if (link.lockedAt || owner?.lockedAt) throw new SignerFlowError("locked");
  const match = (owner ? [owner] : signers).find((s) => s.nat === nat && s.docId === docId);
  const counter = owner ? { table: processSigners, id: owner.id } : { table: processLinks, id: link.id };
  if (!match) {
    // one conditional UPDATE per wrong number, so a parallel burst cannot have more than five counted
    const claimed = await claimIdAttempt(counter, db);
    if (claimed === undefined) throw new SignerFlowError("locked");
    await recordProcessEvent({ processId: process.id, organizationId: process.organizationId, kind: "identity_failed", signerId: owner?.id, detail: { attempt: claimed } }, db);
    if (claimed >= MAX_ID_ATTEMPTS) throw new SignerFlowError("locked");
    throw new SignerFlowError("wrong_id", MAX_ID_ATTEMPTS - claimed);
  }
  if (match.status === "signed") throw new SignerFlowError("already_signed");
  if (match.status === "rejected") throw new SignerFlowError("signer_rejected");
  // The right number is not counted, so it never locks the link for a moment; but once wrong ones
  // in parallel have locked it, it is refused too. The lock is read under the row lock the claims take.
  await db.transaction(async (tx) => {
    if (!(await counterStillOpen(counter, tx))) throw new SignerFlowError("locked");
    const [verified] = await tx
      .update(processSigners)
      .set({ identityVerifiedAt: new Date() })
      .where(and(eq(processSigners.id, match.id), isNull(processSigners.lockedAt)))
      .returning({ id: processSigners.id });
    if (!verified) throw new SignerFlowError("locked");
    await recordProcessEvent({ processId: process.id, organizationId: process.organizationId, kind: "identity_verified", signerId: match.id }, tx);
  });
  return { signerId: match.id, facialRequired: match.signChallenges.includes("facial") };
}

type IdCounter = { table: typeof processSigners | typeof processLinks; id: string };

/** One conditional UPDATE … RETURNING: refused (undefined) once locked; the fifth claim locks. */
async function claimIdAttempt({ table, id }: IdCounter, db: Db): Promise<number | undefined> {
  const next = sql`${table.failedIdAttempts} + 1`;
  const [row] = await db
    .update(table)
    .set({ failedIdAttempts: next, lockedAt: sql`case when ${next} >= ${MAX_ID_ATTEMPTS} then now() else null end` })
    .where(and(eq(table.id, id), isNull(table.lockedAt)))
    .returning({ failed: table.failedIdAttempts });
  return row?.failed;
}

async function counterStillOpen({ table, id }: IdCounter, tx: Db): Promise<boolean> {
  const [row] = await tx.select({ lockedAt: table.lockedAt }).from(table).where(eq(table.id, id)).for("update");
  return row !== undefined && row.lockedAt === null;
}
