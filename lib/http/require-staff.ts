import { redirect } from "next/navigation";
import { getServices } from "@/lib/runtime/services";
import { auth } from "./staff-session";
import { loadStaffIdentity, type StaffIdentity } from "@/lib/auth/authenticate-staff";
import { isStaffSessionLive } from "@/lib/auth/staff-sessions";
import { can, type Permission } from "@/lib/auth/roles";
import { AppError } from "@/lib/errors";

/**
 * The staff member behind the session cookie, re-read from the database so that a suspended
 * organization or a removed user loses access at once; null when there is none.
 */
export async function currentStaff(): Promise<StaffIdentity | null> {
  const session = (await auth()) as { userId?: string; sessionId?: string } | null;
  if (!session?.userId || !session.sessionId) return null;
  const { db } = await getServices();
  // a replayed cookie of a session that was signed out or revoked is worth nothing
  if (!(await isStaffSessionLive({ sessionId: session.sessionId, userId: session.userId }, db))) return null;
  return loadStaffIdentity(session.userId, db);
}

/** The server-side session id behind the current cookie, if any. */
export async function currentSessionId(): Promise<string | undefined> {
  return ((await auth()) as { sessionId?: string } | null)?.sessionId;
}

/** The signed-in staff member for a dashboard page; redirects to /login when there is none. */
export async function requireStaff(permission?: Permission): Promise<StaffIdentity> {
  const identity = await currentStaff();
  if (!identity) redirect("/login");
  if (permission && !can(identity.role, permission)) throw new AppError("FORBIDDEN");
  return identity;
}
