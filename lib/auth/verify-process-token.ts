import { and, eq, isNull } from "drizzle-orm";
import { jwtVerify } from "jose";
import type { Db } from "@/db/client";
import { apiCredentials, organizations, type CredentialRole } from "@/db/schema";
import { deriveKey } from "@/lib/crypto/derive-key";
import { AppError } from "@/lib/errors";

export type ProcessCaller = {
  /** null when a staff member acts through the dashboard (lib/auth/staff-process-caller.ts). */
  credentialId: string | null;
  clientname: string;
  role: CredentialRole;
  organizationId: string;
  organizationDomain: string;
  /** Permissions granted to this credential beyond its role (lib/auth/roles.ts `grantablePermissions`). */
  grants?: readonly string[];
};

/**
 * The credential behind a process-API token. The credential and its organization are re-read on
 * every call, so revocation, suspension and a replaced secret take effect at once.
 */
export async function verifyProcessToken(token: string, { db, secretKey }: { db: Db; secretKey: Uint8Array }): Promise<ProcessCaller> {
  let subject: string | undefined;
  let generation: unknown;
  try {
    const { payload } = await jwtVerify(token, deriveKey(secretKey, "process-api-jwt"), { algorithms: ["HS256"] });
    subject = payload.sub;
    generation = payload.gen;
  } catch {
    throw new AppError("UNAUTHORIZED");
  }
  if (!subject) throw new AppError("UNAUTHORIZED");
  const [row] = await db
    .select({ credential: apiCredentials, organization: organizations })
    .from(apiCredentials)
    .innerJoin(organizations, eq(apiCredentials.organizationId, organizations.id))
    .where(and(eq(apiCredentials.id, subject), isNull(apiCredentials.revokedAt)))
    .limit(1);
  if (!row || row.organization.status !== "active") throw new AppError("UNAUTHORIZED");
  // tokens issued before generations existed carry none: they belong to the first secret
  if ((generation ?? 1) !== row.credential.secretGeneration) throw new AppError("UNAUTHORIZED");
  return {
    credentialId: row.credential.id,
    clientname: row.credential.clientname,
    role: row.credential.role,
    organizationId: row.organization.id,
    organizationDomain: row.organization.domain,
    grants: row.credential.grants,
  };
}
