import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizationIdentityProviders, organizations } from "@/db/schema";
import { openClientSecret } from "./client-secret-box";
import type { EidProvider } from "./oidc-relying-party";

/** The provider as the dashboard shows it: everything but the secret. */
export type IdentityProviderView = Omit<typeof organizationIdentityProviders.$inferSelect, "clientSecretEncrypted" | "id" | "organizationId">;

export async function describeIdentityProvider(input: { organizationId: string }, db: Db): Promise<IdentityProviderView | null> {
  const [row] = await db.select().from(organizationIdentityProviders).where(eq(organizationIdentityProviders.organizationId, input.organizationId)).limit(1);
  if (!row) return null;
  const { clientSecretEncrypted: _secret, id: _id, organizationId: _organization, ...view } = row;
  return view;
}

/** The provider with its secret opened, for the relying party only (never for a page). */
export async function loadEidProvider(input: { organizationId: string }, deps: { db: Db; secretKey: Uint8Array }): Promise<(EidProvider & { displayName: string }) | null> {
  const [found] = await deps.db
    .select({ row: organizationIdentityProviders, allowPrivate: organizations.allowPrivateCallbacks })
    .from(organizationIdentityProviders)
    .innerJoin(organizations, eq(organizations.id, organizationIdentityProviders.organizationId))
    .where(eq(organizationIdentityProviders.organizationId, input.organizationId))
    .limit(1);
  if (!found) return null;
  const { row } = found;
  return {
    allowPrivate: found.allowPrivate,
    displayName: row.displayName,
    issuer: row.issuer,
    clientId: row.clientId,
    clientSecret: openClientSecret(row.clientSecretEncrypted, deps.secretKey, input.organizationId),
    scopes: row.scopes,
    documentNumberClaim: row.documentNumberClaim,
    givenNameClaim: row.givenNameClaim,
    familyNameClaim: row.familyNameClaim,
  };
}
