import net from "node:net";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizationIdentityProviders, organizations } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { AppError } from "@/lib/errors";
import { isPrivateAddress } from "@/lib/outbound-http/post-webhook";
import { sealClientSecret } from "./client-secret-box";
import { isLoopbackIssuer } from "./loopback-issuer";
import { ZIdentityProviderSettings, type IdentityProviderSettingsInput } from "./schemas";

/**
 * Creates or replaces the organization's OIDC identity provider. The client secret is sealed under
 * SECRET_KEY; an empty one keeps the stored secret unless the issuer changes (the old secret would
 * otherwise go, by Basic auth, to the new issuer). A private or plain-http issuer needs the platform
 * admin's permission for private targets (names are checked again after DNS, at each request). The audit entry names the changed fields, never
 * the secret (only whether it changed).
 */
export async function saveIdentityProvider(
  input: { organizationId: string; settings: IdentityProviderSettingsInput; actor: string },
  deps: { db: Db; secretKey: Uint8Array },
): Promise<void> {
  const { clientSecret, ...settings } = ZIdentityProviderSettings.parse(input.settings);
  await deps.db.transaction(async (tx) => {
    const [before] = await tx.select().from(organizationIdentityProviders).where(eq(organizationIdentityProviders.organizationId, input.organizationId)).for("update").limit(1);
    const [organization] = await tx.select({ allowPrivate: organizations.allowPrivateCallbacks }).from(organizations).where(eq(organizations.id, input.organizationId)).limit(1);
    if (!issuerAllowed(settings.issuer, organization?.allowPrivate ?? false)) {
      throw new AppError("VALIDATION", "issuer: una dirección privada o de loopback, o http sin TLS, solo si el administrador de la plataforma permitió destinos de red privada", "issuer");
    }
    if (!before && !clientSecret) throw new AppError("VALIDATION", "clientSecret es obligatorio al configurar el proveedor", "clientSecret");
    if (before && before.issuer !== settings.issuer && !clientSecret) throw new AppError("VALIDATION", "clientSecret es obligatorio al cambiar el issuer", "clientSecret");
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

function issuerAllowed(issuer: string, allowPrivate: boolean): boolean {
  if (allowPrivate) return true;
  const host = new URL(issuer).hostname.replace(/^\[|\]$/g, "");
  return !isLoopbackIssuer(issuer) && host !== "localhost" && !(net.isIP(host) && isPrivateAddress(host));
}

/** Removes the provider; signers already created with `eid` can then no longer identify (they are told so). */
export async function removeIdentityProvider(input: { organizationId: string; actor: string }, deps: { db: Db }): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [removed] = await tx.delete(organizationIdentityProviders).where(eq(organizationIdentityProviders.organizationId, input.organizationId)).returning();
    if (!removed) throw new AppError("NOT_FOUND");
    await recordAuditEvent({ organizationId: input.organizationId, actor: input.actor, action: "organization.identity_provider_removed", target: removed.issuer }, tx);
  });
}
