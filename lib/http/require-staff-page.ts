import { redirect } from "next/navigation";
import type { StaffIdentity } from "@/lib/auth/authenticate-staff";
import { requireStaff } from "./require-staff";
import { can, type Permission } from "@/lib/auth/roles";

/** A dashboard page that needs a permission: staff without it land on /forbidden, whatever URL they typed. */
export async function requireStaffPage(permission: Permission): Promise<StaffIdentity> {
  const staff = await requireStaff();
  if (!can(staff.role, permission)) redirect(`/forbidden`);
  return staff;
}
