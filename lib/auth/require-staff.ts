import { redirect } from "next/navigation";
import { getServices } from "@/lib/runtime/services";
import { auth } from "./staff-session";
import { loadStaffIdentity, type StaffIdentity } from "./authenticate-staff";
import { can, type Permission } from "./roles";
import { AppError } from "@/lib/errors";

/**
 * The staff member behind the session cookie, re-read from the database so that a suspended
 * organization or a removed user loses access at once; null when there is none.
 */
export async function currentStaff(): Promise<StaffIdentity | null> {
  const session = await auth();
  const userId = (session as { userId?: string } | null)?.userId;
  if (!userId) return null;
  const { db } = await getServices();
  return loadStaffIdentity(userId, db);
}

/** The signed-in staff member for a dashboard page; redirects to /login when there is none. */
export async function requireStaff(permission?: Permission): Promise<StaffIdentity> {
  const identity = await currentStaff();
  if (!identity) redirect("/login");
  if (permission && !can(identity.role, permission)) throw new AppError("FORBIDDEN");
  return identity;
}
