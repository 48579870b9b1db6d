import type { Db } from "@/db/client";
import { apiCredentials } from "@/db/schema";
import { ZCreateCredential, type CreateCredentialInput } from "./schemas";

export { ZCreateCredential, type CreateCredentialInput };
import { AppError } from "@/lib/errors";
import { hashPassword } from "@/lib/auth/password-hash";
import { isUniqueViolation } from "@/db/is-unique-violation";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { StaffRole } from "@/db/schema";
import { assertMayGrant } from "./assert-may-grant";

/**
 * A process-API credential. The secret is stored only as an argon2id hash. `actor` is who created it,
 * for the audit log, and `createdByUserId` the staff member who saw the secret (their removal ends it); `grantorRole` is their role, which must hold every permission in `grants`.
 */
export async function createCredential(input: CreateCredentialInput & { actor?: string; grantorRole?: StaffRole; createdByUserId?: string }, db: Db) {
  const data = ZCreateCredential.parse(input);
  assertMayGrant(data.grants, input.grantorRole ? { role: input.grantorRole } : undefined);
  const secretHash = await hashPassword(data.secret);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(apiCredentials)
        .values({ organizationId: data.organizationId, clientname: data.clientname, secretHash, role: data.role, grants: data.grants, createdByUserId: input.createdByUserId })
        .returning({ id: apiCredentials.id, clientname: apiCredentials.clientname, role: apiCredentials.role, grants: apiCredentials.grants });
      await recordAuditEvent(
        { organizationId: data.organizationId, actor: input.actor ?? "system", action: "credential.created", target: row.clientname, detail: { credentialId: row.id, role: row.role, grants: row.grants } },
        tx,
      );
      if (row.grants.length) {
        await recordAuditEvent(
          { organizationId: data.organizationId, actor: input.actor ?? "system", action: "credential.granted", target: row.clientname, detail: { credentialId: row.id, granted: row.grants, grantorRole: input.grantorRole } },
          tx,
        );
      }
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error, "api_credentials_org_clientname_key")) {
      throw new AppError("CONFLICT", `la credencial ${data.clientname} ya existe`, "clientname");
    }
    throw error;
  }
}
