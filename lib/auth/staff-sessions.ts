import { and, eq, gt, isNull, ne } from "drizzle-orm";
import type { Db } from "@/db/client";
import { staffSessions } from "@/db/schema";

export const STAFF_SESSION_HOURS = 8;

/** A new server-side session for a staff member who just proved their password. */
export async function openStaffSession(userId: string, db: Db): Promise<string> {
  const [row] = await db
    .insert(staffSessions)
    .values({ userId, expiresAt: new Date(Date.now() + STAFF_SESSION_HOURS * 3600 * 1000) })
    .returning({ id: staffSessions.id });
  return row.id;
}

/** True while the session is neither revoked nor expired and belongs to `userId`. */
export async function isStaffSessionLive({ sessionId, userId }: { sessionId: string; userId: string }, db: Db): Promise<boolean> {
  const [row] = await db
    .select({ id: staffSessions.id })
    .from(staffSessions)
    .where(and(eq(staffSessions.id, sessionId), eq(staffSessions.userId, userId), isNull(staffSessions.revokedAt), gt(staffSessions.expiresAt, new Date())))
    .limit(1);
  return Boolean(row);
}

export async function revokeStaffSession(sessionId: string, db: Db): Promise<void> {
  await db.update(staffSessions).set({ revokedAt: new Date() }).where(and(eq(staffSessions.id, sessionId), isNull(staffSessions.revokedAt)));
}

/** Ends every session of a user (password changed or reset, access removed), except `keep` if given. */
export async function revokeStaffSessions({ userId, keep }: { userId: string; keep?: string }, db: Db): Promise<void> {
  const mine = and(eq(staffSessions.userId, userId), isNull(staffSessions.revokedAt));
  await db.update(staffSessions).set({ revokedAt: new Date() }).where(keep ? and(mine, ne(staffSessions.id, keep)) : mine);
}
