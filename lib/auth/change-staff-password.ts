import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { AppError } from "@/lib/errors";
import { parseWith } from "@/lib/http/parse-input";
import { hashPassword, verifyPassword } from "./password-hash";
import { ZPassword } from "./password-policy";
import { revokeStaffSessions } from "./staff-sessions";
import { throttleLogin } from "./throttle-logins";

/**
 * A staff member changes their own password: the current one is checked (under the login
 * throttle, since it is a password guess like any other), the new one must pass the policy, and
 * every session of the user ends, this one included.
 */
export async function changeStaffPassword(input: { userId: string; currentPassword: string; newPassword: string; address: string }, db: Db): Promise<void> {
  const [user] = await db.select().from(users).where(and(eq(users.id, input.userId), isNull(users.disabledAt))).limit(1);
  if (!user) throw new AppError("NOT_FOUND");
  const newPassword = parseWith(ZPassword, input.newPassword);
  const checked = await throttleLogin({ account: `staff:${user.email}`, address: input.address }, db, async () =>
    (await verifyPassword(user.passwordHash, input.currentPassword)) ? user : null,
  );
  if (!checked) throw new AppError("VALIDATION", "la contraseña actual no es correcta", "currentPassword");
  await setPassword({ userId: user.id, organizationId: user.organizationId, password: newPassword, actor: user.email, action: "staff.password_changed" }, db);
}

/** The organization owner sets a new password for a staff member, which ends their sessions. */
export async function resetStaffPassword(input: { organizationId: string; userId: string; newPassword: string; actor: string }, db: Db): Promise<{ email: string }> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, input.userId), eq(users.organizationId, input.organizationId), isNull(users.disabledAt)))
    .limit(1);
  if (!user) throw new AppError("NOT_FOUND", "el usuario no existe o fue quitado");
  await setPassword({ userId: user.id, organizationId: user.organizationId, password: parseWith(ZPassword, input.newPassword), actor: input.actor, action: "staff.password_reset" }, db);
  return { email: user.email };
}

async function setPassword(input: { userId: string; organizationId: string; password: string; actor: string; action: "staff.password_changed" | "staff.password_reset" }, db: Db) {
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, input.userId));
    await revokeStaffSessions(input.userId, tx as unknown as Db);
    await recordAuditEvent({ organizationId: input.organizationId, actor: input.actor, action: input.action, target: input.userId }, tx);
  });
}
