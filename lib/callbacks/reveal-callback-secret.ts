import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { callbackSecretOf } from "./callback-secret";

/**
 * Shows the callback secret to a staff member and records who saw which version: removing that
 * person later rotates it (lib/organizations/disable-staff-user.ts reads these rows).
 */
export async function revealCallbackSecret(input: { organizationId: string; userId: string; actor: string }, { db, secretKey }: { db: Db; secretKey: Uint8Array }) {
  return db.transaction(async (tx) => {
    // the row lock orders a reveal against a concurrent rotation: the version recorded is the one shown
    const [organization] = await tx.select({ id: organizations.id, version: organizations.callbackSecretVersion }).from(organizations).where(eq(organizations.id, input.organizationId)).for("update");
    if (!organization) throw new AppError("NOT_FOUND");
    await recordAuditEvent(
      { organizationId: organization.id, actor: input.actor, action: "callback_secret.revealed", target: `v${organization.version}`, detail: { userId: input.userId, version: organization.version } },
      tx as unknown as Db,
    );
    return { version: organization.version, secret: callbackSecretOf(secretKey, organization.id, organization.version) };
  });
}
