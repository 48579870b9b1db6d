import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processSigners } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { AppError } from "@/lib/errors";
import { assertOpen, lockProcess } from "@/lib/processes/conclude-process";
import { recordProcessEvent } from "@/lib/processes/record-process-event";
import { MAX_FACIAL_ATTEMPTS } from "./open-signing-link";

/**
 * A staff member (permission identity:review) lets a locked signer try again: the lock is lifted
 * and the signer gets MAX_FACIAL_ATTEMPTS new facial tries and new ID-number tries. Nothing of the
 * earlier tries is removed: their timeline events, selfies and evidence stay, and the unlock itself
 * is a timeline event and an audit entry naming who did it and how many tries were used before.
 */
export async function unlockSigner(input: { organizationId: string; processId: string; signerId: string; actor: string }, db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const process = await lockProcess({ organizationId: input.organizationId, processId: input.processId }, tx);
    assertOpen(process);
    const [signer] = await tx
      .select()
      .from(processSigners)
      .where(and(eq(processSigners.id, input.signerId), eq(processSigners.processId, process.id), eq(processSigners.organizationId, input.organizationId)))
      .for("update");
    if (!signer) throw new AppError("NOT_FOUND", "El firmante no existe en este proceso.");
    if (!signer.lockedAt || signer.status !== "pending") throw new AppError("CONFLICT", "El firmante no está bloqueado.");
    await tx.update(processSigners).set({ lockedAt: null, facialAttempts: 0, failedIdAttempts: 0 }).where(eq(processSigners.id, signer.id));
    const detail = { lockedAt: signer.lockedAt.toISOString(), facialAttemptsBefore: signer.facialAttempts, failedIdAttemptsBefore: signer.failedIdAttempts, newFacialAttempts: MAX_FACIAL_ATTEMPTS };
    await recordProcessEvent({ processId: process.id, organizationId: process.organizationId, kind: "signer_unlocked", signerId: signer.id, actor: input.actor, detail }, tx);
    await recordAuditEvent({ organizationId: process.organizationId, actor: input.actor, action: "signer.unlocked", target: process.id, detail: { signer: `${signer.nat}:${signer.docId}`, ...detail } }, tx);
  });
}
