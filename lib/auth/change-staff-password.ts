import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { AppError } from "@/lib/errors";
import { parseWith } from "@/lib/request-reading/parse-input";
import { hashPassword, verifyPassword } from "./password-hash";
import { ZPassword } from "./password-policy";
import { endStaffCredentials } from "./end-staff-credentials";
import { throttleLogin } from "./throttle-logins";

/**
 * A staff member changes their own password: the current one is checked (under the login
 * throttle, since it is a password guess like any other), the new one must pass the policy, and
 * every credential of the user ends, this session included.
 */
export async function changeStaffPassword(input: { userId: string; currentPassword: string; newPassword: string; address: string }, db: Db): Promise<void> {
  const [user] = await db.select().from(users).where(and(eq(users.id, input.userId), isNull(users.disabledAt))).limit(1);
  if (!user) throw new AppError("NOT_FOUND");
  const newPassword = parseWith(ZPassword, input.newPassword);
  const checked = await throttleLogin({ account: `staff:${user.email}`, address: input.address, check: async () =>
    (await verifyPassword(user.passwordHash, input.currentPassword)) ? user : null }, db);
  if (!checked) throw new AppError("VALIDATION", "la contraseña actual no es correcta", "currentPassword");
  await setPassword({ userId: user.id, organizationId: user.organizationId, password: newPassword, actor: user.email, action: "staff.password_changed" }, db);
}

/** Who resets a password: an organization owner (dashboard) or the operator (admin CLI). */
export type PasswordResetActor = { kind: "owner"; email: string; organizationId: string; isPlatformAdmin: boolean } | { kind: "admin-cli" };

/**
 * Sets a new password for a staff member, which ends every credential they hold. An owner resets
 * within their organization, an owner's password only if they are a platform administrator, and a
 * platform administrator's never: only the operator, through the admin CLI, can.
 */
export async function resetStaffPassword(input: { userId?: string; email?: string; newPassword: string; actor: PasswordResetActor }, db: Db): Promise<{ email: string }> {
  const { actor } = input;
  const [user] = await db
    .select()
    .from(users)
    .where(
      and(
        input.userId ? eq(users.id, input.userId) : eq(users.email, (input.email ?? "").trim().toLowerCase()),
        actor.kind === "owner" ? eq(users.organizationId, actor.organizationId) : undefined,
        isNull(users.disabledAt),
      ),
    )
    .limit(1);
  if (!user) throw new AppError("NOT_FOUND", "el usuario no existe o fue quitado");
  if (actor.kind === "owner" && user.isPlatformAdmin) {
    throw new AppError("FORBIDDEN", "la contraseña de un administrador de la plataforma solo se restablece con la consola de administración", "userId");
  }
  if (actor.kind === "owner" && user.role === "owner" && !actor.isPlatformAdmin) {
    throw new AppError("FORBIDDEN", "solo un administrador de la plataforma puede restablecer la contraseña de un propietario", "userId");
  }
  const actorName = actor.kind === "owner" ? actor.email : "admin-cli";
  await setPassword({ userId: user.id, organizationId: user.organizationId, password: parseWith(ZPassword, input.newPassword), actor: actorName, action: "staff.password_reset" }, db);
  return { email: user.email };
}

async function setPassword(input: { userId: string; organizationId: string; password: string; actor: string; action: "staff.password_changed" | "staff.password_reset" }, db: Db) {
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, input.userId));
    await endStaffCredentials({ userId: input.userId, organizationId: input.organizationId, actor: input.actor }, tx as unknown as Db);
    await recordAuditEvent({ organizationId: input.organizationId, actor: input.actor, action: input.action, target: input.userId }, tx);
  });
}
