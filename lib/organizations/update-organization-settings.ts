import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { parseWith } from "@/lib/request-reading/parse-input";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { ZOrganizationSettings, type OrganizationSettingsInput } from "./schemas";

/**
 * Link mode, approval requirement, enabled ID types, time zone and the identity-review switch: the
 * owner's settings. Every change is audited in the same transaction, naming the fields with their
 * old and new values; the identity-review switch gets its own audit action because it lowers the
 * identity level of self-supplied ID photos. The private-callback switch is not among them
 * (set-private-callbacks.ts, platform only).
 */
export async function updateOrganizationSettings(input: { organizationId: string; settings: Partial<OrganizationSettingsInput>; actor: string }, db: Db) {
  if (input.settings && typeof input.settings === "object" && "allowPrivateCallbacks" in input.settings) {
    throw new AppError("FORBIDDEN", "allowPrivateCallbacks: solo un administrador de la plataforma puede permitir callbacks a direcciones de red privada", "allowPrivateCallbacks");
  }
  const settings = parseWith(ZOrganizationSettings.partial(), input.settings);
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(organizations).where(eq(organizations.id, input.organizationId)).for("update").limit(1);
    if (!before) throw new AppError("NOT_FOUND");
    const [row] = await tx.update(organizations).set(settings).where(eq(organizations.id, input.organizationId)).returning();
    const changed = Object.fromEntries(
      Object.entries(settings)
        .filter(([key, value]) => JSON.stringify(before[key as keyof typeof before]) !== JSON.stringify(value))
        .map(([key, value]) => [key, { from: before[key as keyof typeof before], to: value }]),
    );
    const { identityReviewRequired, ...others } = changed;
    if (Object.keys(others).length > 0) {
      await recordAuditEvent({ organizationId: row.id, actor: input.actor, action: "organization.settings_changed", target: row.domain, detail: others }, tx);
    }
    if (identityReviewRequired) {
      await recordAuditEvent({ organizationId: row.id, actor: input.actor, action: "organization.identity_review_switched", target: row.domain, detail: { identityReviewRequired: row.identityReviewRequired } }, tx);
    }
    return row;
  });
}
