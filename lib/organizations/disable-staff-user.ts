import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { endStaffCredentials } from "@/lib/auth/end-staff-credentials";

/**
 * Removes a staff member by disabling them: their sessions, stamp-API tokens and any credential
 * holding their password end at once; the row stays for the audit trail. The last owner stays.
 */
export async function disableStaffUser(input: { organizationId: string; userId: string; actingUserId: string; actor: string }, db: Db) {
  if (input.userId === input.actingUserId) throw new AppError("VALIDATION", "no puede quitarse a sí mismo", "userId");
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
    await endStaffCredentials({ userId: target.id, organizationId: input.organizationId, actor: input.actor }, tx as unknown as Db);
    return { email: target.email };
  });
}
