import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { CALLBACK_SECRET_OVERLAP_MS } from "./callback-secret";

export type CallbackSecretRotation = {
  organizationId: string;
  actor: string;
  /** Sign with the old secret too for 24 h (a departure: receivers need time); a manual rotation ends it at once. */
  overlap: boolean;
  reason: string;
};

/** Rotates the callback secret by bumping its version: the next delivery is signed with the new derived secret. Pass a transaction to make it part of a larger change. */
export async function rotateCallbackSecret(input: CallbackSecretRotation, db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const previousUntil = input.overlap ? new Date(Date.now() + CALLBACK_SECRET_OVERLAP_MS) : null;
    const [row] = await tx
      .update(organizations)
      .set({ callbackSecretVersion: sql`${organizations.callbackSecretVersion} + 1`, callbackSecretPreviousUntil: previousUntil })
      .where(eq(organizations.id, input.organizationId))
      .returning({ version: organizations.callbackSecretVersion });
    if (!row) throw new AppError("NOT_FOUND");
    await recordAuditEvent(
      { organizationId: input.organizationId, actor: input.actor, action: "callback_secret.rotated", target: `v${row.version}`, detail: { version: row.version, previousAcceptedUntil: previousUntil?.toISOString() ?? null, reason: input.reason } },
      tx as unknown as Db,
    );
    return row.version;
  });
}
