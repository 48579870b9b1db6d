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
  // the attempt is counted before the answer is known, so a parallel burst cannot try more than five
  const counter = owner ? { table: processSigners, id: owner.id } : { table: processLinks, id: link.id };
  const claimed = await claimIdAttempt(counter, db);
  if (claimed === undefined) throw new SignerFlowError("locked");
  if (!match) {
    await recordProcessEvent({ processId: process.id, organizationId: process.organizationId, kind: "identity_failed", signerId: owner?.id, detail: { attempt: claimed } }, db);
    if (claimed >= MAX_ID_ATTEMPTS) throw new SignerFlowError("locked");
    throw new SignerFlowError("wrong_id", MAX_ID_ATTEMPTS - claimed);
  }
  // the right number gives its attempt back
  await releaseIdAttempt(counter, db);
  if (match.status === "signed") throw new SignerFlowError("already_signed");
  if (match.status === "rejected") throw new SignerFlowError("signer_rejected");
  if (match.lockedAt) throw new SignerFlowError("locked");
  await db.transaction(async (tx) => {
    await tx.update(processSigners).set({ identityVerifiedAt: new Date() }).where(eq(processSigners.id, match.id));
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

async function releaseIdAttempt({ table, id }: IdCounter, db: Db): Promise<void> {
  await db
    .update(table)
    .set({
      failedIdAttempts: sql`greatest(${table.failedIdAttempts} - 1, 0)`,
      // only the lock this counter set (at exactly the limit) is lifted; a lock for another reason stays
      lockedAt: sql`case when ${table.failedIdAttempts} >= ${MAX_ID_ATTEMPTS} and ${table.failedIdAttempts} - 1 < ${MAX_ID_ATTEMPTS} then null else ${table.lockedAt} end`,
    })
    .where(eq(table.id, id));
}

