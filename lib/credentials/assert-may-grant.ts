import type { CredentialRole, StaffRole } from "@/db/schema";
import { can, type GrantablePermission } from "@/lib/auth/roles";
import { AppError } from "@/lib/errors";

/**
 * Who grants a credential a permission beyond its role must hold it: otherwise a staff member who
 * manages credentials (or a future role that may) would hand a credential more than they have.
 */
export function assertMayGrant(grants: readonly GrantablePermission[], grantor: { role: StaffRole | CredentialRole } | undefined): void {
  for (const permission of grants) {
    if (!grantor || !can(grantor.role, permission)) throw new AppError("FORBIDDEN", `solo quien tiene ${permission} puede otorgarlo`, "grants");
  }
}
