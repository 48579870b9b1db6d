import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, users } from "@/db/schema";
import { verifyAgainstNothing, verifyPassword } from "./password-hash";
import { throttleLogin } from "./throttle-logins";

export type StaffIdentity = {
  userId: string;
  email: string;
  role: (typeof users.$inferSelect)["role"];
  organizationId: string;
  organizationDomain: string;
  /** IANA zone for dates on the dashboard (display and filters). */
  organizationTimeZone: string;
  isPlatformAdmin: boolean;
};

/**
 * E-mail + password of a staff user, shared by the dashboard login and the stamp-API token
 * endpoints. Disabled users and suspended organizations are refused like a wrong password.
 */
export async function authenticateStaff(input: { email: string; password: string; address?: string }, db: Db): Promise<StaffIdentity | null> {
  const { email, password, address = "unknown" } = input;
  return throttleLogin({ account: `staff:${email}`, address, check: () => checkStaffPassword(email, password, db) }, db);
}

async function checkStaffPassword(email: string, password: string, db: Db): Promise<StaffIdentity | null> {
  const [row] = await db
    .select({ user: users, organization: organizations })
    .from(users)
    .innerJoin(organizations, eq(users.organizationId, organizations.id))
    .where(eq(users.email, email.trim().toLowerCase()))
    .limit(1);
  if (!row) return verifyAgainstNothing(password).then(() => null);
  if (!(await verifyPassword(row.user.passwordHash, password))) return null;
  if (row.user.disabledAt || row.organization.status !== "active") return null;
  return toIdentity(row);
}

/** Re-reads a staff identity (every request), so suspension and removal take effect at once. */
export async function loadStaffIdentity(userId: string, db: Db): Promise<StaffIdentity | null> {
  const [row] = await db
    .select(staffIdentityColumns)
    .from(users)
    .innerJoin(organizations, eq(users.organizationId, organizations.id))
    .where(eq(users.id, userId))
    .limit(1);
  return row ? activeStaffIdentity(row) : null;
}

/** The columns a staff identity needs, for a select joining users and organizations (no password hash). */
export const staffIdentityColumns = {
  userId: users.id,
  email: users.email,
  role: users.role,
  isPlatformAdmin: users.isPlatformAdmin,
  disabledAt: users.disabledAt,
  organizationId: organizations.id,
  organizationDomain: organizations.domain,
  organizationTimeZone: organizations.timeZone,
  organizationStatus: organizations.status,
};

type StaffIdentityRow = StaffIdentity & { disabledAt: Date | null; organizationStatus: (typeof organizations.$inferSelect)["status"] };

/** The identity of a row read with staffIdentityColumns, or null for a disabled user or a suspended organization. */
export function activeStaffIdentity({ disabledAt, organizationStatus, ...identity }: StaffIdentityRow): StaffIdentity | null {
  if (disabledAt || organizationStatus !== "active") return null;
  return identity;
}

function toIdentity(row: { user: typeof users.$inferSelect; organization: typeof organizations.$inferSelect }): StaffIdentity {
  return {
    userId: row.user.id,
    email: row.user.email,
    role: row.user.role,
    organizationId: row.organization.id,
    organizationDomain: row.organization.domain,
    organizationTimeZone: row.organization.timeZone,
    isPlatformAdmin: row.user.isPlatformAdmin,
  };
}
