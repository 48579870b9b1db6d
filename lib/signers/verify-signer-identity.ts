import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processLinks, processSigners } from "@/db/schema";
import { normalizeDocId } from "@/lib/processes/check-national-id";
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
  const context = await resolveSigningLink(input.token, db);
  const { link, process, signers } = context;
  const nat = (input.nat ?? "PER").trim().toUpperCase();
  const docId = normalizeDocId(input.docId);
  const owner = link.signerId ? signers.find((s) => s.id === link.signerId) : undefined;
  if (link.lockedAt || owner?.lockedAt) throw new SignerFlowError("locked");
  const match = (owner ? [owner] : signers).find((s) => s.nat === nat && s.docId === docId);
  if (!match) {
    const failures = await db.transaction(async (tx) => {
      const table = owner ? processSigners : processLinks;
      const [row] = owner
        ? await tx
            .update(processSigners)
            .set({ failedIdAttempts: sql`${processSigners.failedIdAttempts} + 1` })
            .where(eq(processSigners.id, owner.id))
            .returning({ failed: processSigners.failedIdAttempts })
        : await tx
            .update(processLinks)
            .set({ failedIdAttempts: sql`${processLinks.failedIdAttempts} + 1` })
            .where(eq(processLinks.id, link.id))
            .returning({ failed: processLinks.failedIdAttempts });
      if (row.failed >= MAX_ID_ATTEMPTS) {
        await tx.update(table).set({ lockedAt: new Date() }).where(and(eq(table.id, owner?.id ?? link.id), isNull(table.lockedAt)));
      }
      await recordProcessEvent(
        { processId: process.id, organizationId: process.organizationId, kind: "identity_failed", signerId: owner?.id, detail: { attempt: row.failed } },
        tx,
      );
      return row.failed;
    });
    if (failures >= MAX_ID_ATTEMPTS) throw new SignerFlowError("locked");
    throw new SignerFlowError("wrong_id", MAX_ID_ATTEMPTS - failures);
  }
  if (match.status === "signed") throw new SignerFlowError("already_signed");
  if (match.status === "rejected") throw new SignerFlowError("signer_rejected");
  if (match.lockedAt) throw new SignerFlowError("locked");
  await db.transaction(async (tx) => {
    await tx.update(processSigners).set({ identityVerifiedAt: new Date() }).where(eq(processSigners.id, match.id));
    await recordProcessEvent({ processId: process.id, organizationId: process.organizationId, kind: "identity_verified", signerId: match.id }, tx);
  });
  return { signerId: match.id, facialRequired: match.signChallenges.includes("facial") };
}
