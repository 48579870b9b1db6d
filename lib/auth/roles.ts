import type { CredentialRole, StaffRole } from "@/db/schema";

/**
 * What each role may do. Process-API credentials and staff users share the same permission names,
 * so the dashboard and the API answer the same question the same way. Documented in docs/roles.md.
 */
export const permissions = [
  "processes:read",
  "processes:create",
  "processes:modify",
  "processes:reject",
  "processes:notify",
  "processes:approve",
  "labels:read",
  "labels:write",
  "stamp:sign",
  "credentials:manage",
  "certificates:manage",
  "staff:manage",
  "organization:manage",
  "biometrics:read",
  "identity:review",
  "audit:read",
  "identity:registry",
] as const;
export type Permission = (typeof permissions)[number];

const viewer: Permission[] = ["processes:read", "labels:read"];
const operator: Permission[] = [
  ...viewer,
  "processes:create",
  "processes:modify",
  "processes:reject",
  "processes:notify",
  "labels:write",
  "stamp:sign",
];
const admin: Permission[] = [
  ...operator,
  "processes:approve",
  "credentials:manage",
  "certificates:manage",
  "staff:manage",
  "biometrics:read",
  "identity:review",
  "audit:read",
  // supplying the reference portrait that makes a signer `registry` (issue 36): never an operator's
  "identity:registry",
];

export const rolePermissions: Record<StaffRole | CredentialRole, readonly Permission[]> = {
  viewer,
  operator,
  admin,
  owner: [...admin, "organization:manage"],
};

export function can(role: StaffRole | CredentialRole, permission: Permission): boolean {
  return rolePermissions[role].includes(permission);
}

/**
 * Permissions a staff member may grant one process-API credential beyond its role, and only if they
 * hold the permission themselves (no one hands out more than they have).
 */
export const grantablePermissions = ["identity:registry"] as const satisfies readonly Permission[];
export type GrantablePermission = (typeof grantablePermissions)[number];

/** The role's permissions, or one granted to this credential by name. */
export function callerCan(caller: { role: StaffRole | CredentialRole; grants?: readonly string[] }, permission: Permission): boolean {
  return can(caller.role, permission) || (caller.grants ?? []).includes(permission);
}
