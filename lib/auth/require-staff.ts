import { redirect } from "next/navigation";
import { getServices } from "@/lib/runtime/services";
import { auth } from "./staff-session";
import { loadStaffIdentity, type StaffIdentity } from "./authenticate-staff";
import { can, type Permission } from "./roles";
import { AppError } from "@/lib/errors";

/** The signed-in staff member for a dashboard page; redirects to /login when there is none. */
export async function requireStaff(permission?: Permission): Promise<StaffIdentity> {
  const session = await auth();
  const userId = (session as { userId?: string } | null)?.userId;
  if (!userId) redirect("/login");
  const { db } = await getServices();
  const identity = await loadStaffIdentity(userId, db);
  if (!identity) redirect("/login");
  if (permission && !can(identity.role, permission)) throw new AppError("FORBIDDEN");
  return identity;
}
