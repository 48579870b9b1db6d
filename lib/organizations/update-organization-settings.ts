import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { ZOrganizationSettings, type OrganizationSettingsInput } from "./schemas";

/**
 * Link mode, approval requirement, enabled ID types, time zone and the private-callback switch.
 * Every change is audited in the same transaction, naming the fields with their old and new values;
 * the private-callback switch gets its own audit action because it lowers the SSRF guard, and so does
 * the identity-review switch, which lowers the identity level of self-supplied ID photos.
 */
export async function updateOrganizationSettings(input: { organizationId: string; settings: Partial<OrganizationSettingsInput>; actor: string }, db: Db) {
  const settings = ZOrganizationSettings.partial().parse(input.settings);
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(organizations).where(eq(organizations.id, input.organizationId)).for("update").limit(1);
    if (!before) throw new AppError("NOT_FOUND");
    const [row] = await tx.update(organizations).set(settings).where(eq(organizations.id, input.organizationId)).returning();
    const changed = Object.fromEntries(
      Object.entries(settings)
        .filter(([key, value]) => JSON.stringify(before[key as keyof typeof before]) !== JSON.stringify(value))
        .map(([key, value]) => [key, { from: before[key as keyof typeof before], to: value }]),
    );
    const { allowPrivateCallbacks, identityReviewRequired, ...others } = changed;
    if (Object.keys(others).length > 0) {
      await recordAuditEvent({ organizationId: row.id, actor: input.actor, action: "organization.settings_changed", target: row.domain, detail: others }, tx);
    }
    if (allowPrivateCallbacks) {
      const action = row.allowPrivateCallbacks ? "organization.private_callbacks_allowed" : "organization.private_callbacks_refused";
      await recordAuditEvent({ organizationId: row.id, actor: input.actor, action, target: row.domain }, tx);
    }
    if (identityReviewRequired) {
      await recordAuditEvent({ organizationId: row.id, actor: input.actor, action: "organization.identity_review_switched", target: row.domain, detail: { identityReviewRequired: row.identityReviewRequired } }, tx);
    }
    return row;
  });
}
