import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import type { StaffIdentity } from "./authenticate-staff";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

/**
 * A dashboard login attempt. A failure goes to the chain of the organization that owns the typed
 * e-mail, so its admins see attempts on their accounts; unknown e-mails go to the platform chain.
 */
export async function recordStaffLogin(input: { email: string; identity: StaffIdentity | null }, db: Db) {
  const { identity } = input;
  if (identity) {
    await recordAuditEvent({ organizationId: identity.organizationId, actor: identity.email, action: "staff.login", target: identity.userId }, db);
    return;
  }
  const email = input.email.trim().toLowerCase().slice(0, 320);
  const [owner] = await db.select({ organizationId: users.organizationId }).from(users).where(eq(users.email, email)).limit(1);
  // attempts on e-mails nobody owns are counted in login_throttles, not written row by row: a
  // spray of invented addresses must not grow the audit chain without bound
  if (!owner) return;
  await recordAuditEvent({ organizationId: owner.organizationId, actor: email, action: "staff.login_failed" }, db);
}
