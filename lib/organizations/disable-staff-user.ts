import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditLog, organizations, users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { endStaffCredentials } from "@/lib/auth/end-staff-credentials";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { rotateCallbackSecret } from "@/lib/callbacks/rotate-callback-secret";
import { prepareReassignment, settleDepartedCredentials } from "@/lib/credentials/settle-departed-credentials";

export type StaffRemoval = {
  organizationId: string;
  userId: string;
  actingUserId: string;
  actor: string;
  /** Credentials the person created that the acting owner keeps, with new secrets; the others are revoked. */
  reassign?: readonly string[];
};

/**
 * Removes a staff member by disabling them: their sessions, stamp-API tokens, any credential holding
 * their password and every credential they created (unless re-assigned) end at once, and a callback
 * secret they saw is rotated; the row stays for the audit trail. The last owner stays.
 */
export async function disableStaffUser(input: StaffRemoval, db: Db) {
  if (input.userId === input.actingUserId) throw new AppError("VALIDATION", "no puede quitarse a sí mismo", "userId");
  const reassign = await prepareReassignment(input.reassign ?? []);
  return db.transaction(async (tx) => {
    const [target] = await tx
      .select()
      .from(users)
      .where(and(eq(users.id, input.userId), eq(users.organizationId, input.organizationId), isNull(users.disabledAt)))
      .for("update");
    if (!target) throw new AppError("NOT_FOUND", "el usuario no existe o ya fue quitado");
    // the same rule as a password reset: removing is the other way to take over an account's place
    if (target.isPlatformAdmin) throw new AppError("FORBIDDEN", "un administrador de la plataforma no puede ser quitado desde el panel", "userId");
    if (target.role === "owner") {
      const [{ owners }] = await tx
        .select({ owners: sql<number>`count(*)::int` })
        .from(users)
        .where(and(eq(users.organizationId, input.organizationId), eq(users.role, "owner"), isNull(users.disabledAt), ne(users.id, target.id)));
      if (owners === 0) throw new AppError("VALIDATION", "la organización necesita al menos un propietario", "userId");
    }
    await tx.update(users).set({ disabledAt: new Date() }).where(eq(users.id, target.id));
    const txDb = tx as unknown as Db;
    await endStaffCredentials({ userId: target.id, organizationId: input.organizationId, actor: input.actor }, txDb);
    const reassigned = await settleDepartedCredentials(
      { organizationId: input.organizationId, departedUserId: target.id, departedEmail: target.email, newCreator: { userId: input.actingUserId, email: input.actor }, reassign },
      txDb,
    );
    const callbackSecretRotated = await rotateIfRevealed({ organizationId: input.organizationId, userId: target.id, email: target.email, actor: input.actor }, txDb);
    await recordAuditEvent(
      { organizationId: input.organizationId, actor: input.actor, action: "staff.removed", target: target.email, detail: { userId: target.id, reassigned: reassigned.map((r) => r.clientname), callbackSecretRotated } },
      txDb,
    );
    return { email: target.email, reassigned, callbackSecretRotated };
  });
}

/** Rotates the callback secret (old one kept 24 h) when the person saw a version that still signs callbacks. */
async function rotateIfRevealed(input: { organizationId: string; userId: string; email: string; actor: string }, tx: Db): Promise<boolean> {
  const [organization] = await tx
    .select({ version: organizations.callbackSecretVersion, previousUntil: organizations.callbackSecretPreviousUntil })
    .from(organizations)
    .where(eq(organizations.id, input.organizationId))
    .for("update");
  if (!organization) throw new AppError("NOT_FOUND");
  const oldestSigning = organization.previousUntil && organization.previousUntil.getTime() > Date.now() ? organization.version - 1 : organization.version;
  const [seen] = await tx
    .select({ version: sql<number | null>`max((${auditLog.detail}->>'version')::int)` })
    .from(auditLog)
    .where(and(eq(auditLog.organizationId, input.organizationId), eq(auditLog.action, "callback_secret.revealed"), sql`${auditLog.detail}->>'userId' = ${input.userId}`));
  if (seen?.version == null || seen.version < oldestSigning) return false;
  await rotateCallbackSecret({ organizationId: input.organizationId, actor: input.actor, overlap: true, reason: `${input.email}, who saw version ${seen.version}, was removed` }, tx);
  return true;
}
