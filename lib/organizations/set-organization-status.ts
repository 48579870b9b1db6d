import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

/**
 * Suspends or reactivates an organization. Its data is kept; every token and credential checks the
 * status on each call, so a suspension takes effect at the next request. The change is logged in
 * the organization's own audit chain, attributed to `actor`.
 */
export async function setOrganizationStatus(input: { domain: string; status: "active" | "suspended"; actor?: string }, db: Db) {
  const { domain, status, actor = "system" } = input;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(organizations)
      .set({ status })
      .where(eq(organizations.domain, domain.trim().toLowerCase()))
      .returning({ id: organizations.id, domain: organizations.domain, status: organizations.status });
    if (!row) throw new AppError("NOT_FOUND", `no existe la organización ${domain}`, "domain");
    await recordAuditEvent(
      { organizationId: row.id, actor, action: status === "suspended" ? "organization.suspended" : "organization.reactivated", target: row.domain },
      tx,
    );
    return row;
  });
}
