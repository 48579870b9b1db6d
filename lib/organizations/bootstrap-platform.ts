import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import { createOrganization } from "./create-organization";
import { createCredential } from "@/lib/credentials/create-credential";

export type BootstrapInput = { domain: string; adminEmail: string; adminPassword?: string; adminApiSecret?: string };

/**
 * First start with an empty database: the demo organization, its owner (also platform
 * administrator) and an admin process-API credential named after the owner. The credential gets its
 * own generated secret, shown once like a generated password: sharing the password would leave the
 * credential open with the old one after a password change.
 */
export async function bootstrapPlatform(input: BootstrapInput, db: Db) {
  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(organizations);
  if (count > 0) return null;
  const generated = !input.adminPassword;
  const password = input.adminPassword ?? crypto.randomBytes(12).toString("base64url");
  const { organization, owner } = await createOrganization(
    {
      domain: input.domain,
      displayName: input.domain,
      ownerEmail: input.adminEmail,
      ownerPassword: password,
      platformAdmin: true,
    },
    db,
  );
  const credentialSecret = input.adminApiSecret ?? crypto.randomBytes(24).toString("base64url");
  await createCredential({ organizationId: organization.id, clientname: owner.email, secret: credentialSecret, role: "admin" }, db);
  return { organization, owner, password, generated, credentialSecret, credentialSecretGenerated: !input.adminApiSecret };
}
