import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

/**
 * The SSRF guard's switch for one organization (callbacks and CRL fetches to private, loopback and
 * link-local addresses). It opens the operator's own network, so only the platform (its
 * administrator's page or the admin CLI) calls this, never an organization's settings form.
 */
export async function setPrivateCallbacks(input: { organizationId: string; allow: boolean; actor: string }, db: Db) {
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ allow: organizations.allowPrivateCallbacks }).from(organizations).where(eq(organizations.id, input.organizationId)).for("update").limit(1);
    if (!before) throw new AppError("NOT_FOUND");
    const [row] = await tx.update(organizations).set({ allowPrivateCallbacks: input.allow }).where(eq(organizations.id, input.organizationId)).returning();
    if (before.allow !== input.allow) {
      const action = input.allow ? "organization.private_callbacks_allowed" : "organization.private_callbacks_refused";
      await recordAuditEvent({ organizationId: row.id, actor: input.actor, action, target: row.domain }, tx);
    }
    return row;
  });
}
