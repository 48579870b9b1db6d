import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiCredentials } from "@/db/schema";

/** The organization's process-API credentials (never their secrets), revoked ones included for the record. */
export async function listCredentials(input: { organizationId: string }, db: Db) {
  return db
    .select({
      id: apiCredentials.id,
      clientname: apiCredentials.clientname,
      role: apiCredentials.role,
      grants: apiCredentials.grants,
      revokedAt: apiCredentials.revokedAt,
      lastUsedAt: apiCredentials.lastUsedAt,
      createdAt: apiCredentials.createdAt,
      createdByUserId: apiCredentials.createdByUserId,
    })
    .from(apiCredentials)
    .where(eq(apiCredentials.organizationId, input.organizationId))
    .orderBy(asc(apiCredentials.clientname));
}
export type CredentialSummary = Awaited<ReturnType<typeof listCredentials>>[number];
