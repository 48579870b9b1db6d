import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizationIdentityProviders } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { AppError } from "@/lib/errors";
import { sealClientSecret } from "./client-secret-box";
import { ZIdentityProviderSettings, type IdentityProviderSettingsInput } from "./schemas";

/**
 * Creates or replaces the organization's OIDC identity provider. The client secret is sealed under
 * SECRET_KEY; an empty one keeps the stored secret. The audit entry names the changed fields, never
 * the secret (only whether it changed).
 */
export async function saveIdentityProvider(
  input: { organizationId: string; settings: IdentityProviderSettingsInput; actor: string },
  deps: { db: Db; secretKey: Uint8Array },
): Promise<void> {
  const { clientSecret, ...settings } = ZIdentityProviderSettings.parse(input.settings);
  await deps.db.transaction(async (tx) => {
    const [before] = await tx.select().from(organizationIdentityProviders).where(eq(organizationIdentityProviders.organizationId, input.organizationId)).for("update").limit(1);
    if (!before && !clientSecret) throw new AppError("VALIDATION", "clientSecret es obligatorio al configurar el proveedor", "clientSecret");
    const sealed = clientSecret ? sealClientSecret(clientSecret, deps.secretKey, input.organizationId) : before!.clientSecretEncrypted;
    const values = { ...settings, clientSecretEncrypted: sealed, updatedAt: new Date() };
    await tx
      .insert(organizationIdentityProviders)
      .values({ organizationId: input.organizationId, ...values })
      .onConflictDoUpdate({ target: organizationIdentityProviders.organizationId, set: values });
    const changed = Object.fromEntries(
      Object.entries(settings)
        .filter(([key, value]) => !before || before[key as keyof typeof settings] !== value)
        .map(([key, value]) => [key, { from: before ? before[key as keyof typeof settings] : null, to: value }]),
    );
    await recordAuditEvent(
      { organizationId: input.organizationId, actor: input.actor, action: "organization.identity_provider_saved", target: settings.issuer, detail: { ...changed, clientSecretChanged: Boolean(clientSecret) } },
      tx,
    );
  });
}

/** Removes the provider; signers already created with `eid` can then no longer identify (they are told so). */
export async function removeIdentityProvider(input: { organizationId: string; actor: string }, deps: { db: Db }): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [removed] = await tx.delete(organizationIdentityProviders).where(eq(organizationIdentityProviders.organizationId, input.organizationId)).returning();
    if (!removed) throw new AppError("NOT_FOUND");
    await recordAuditEvent({ organizationId: input.organizationId, actor: input.actor, action: "organization.identity_provider_removed", target: removed.issuer }, tx);
  });
}
