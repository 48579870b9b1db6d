import type { Db } from "@/db/client";
import { apiCredentials } from "@/db/schema";
import { ZCreateCredential, type CreateCredentialInput } from "./schemas";

export { ZCreateCredential, type CreateCredentialInput };
import { AppError } from "@/lib/errors";
import { hashPassword } from "@/lib/auth/password-hash";
import { isUniqueViolation } from "@/db/is-unique-violation";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

/** A process-API credential. The secret is stored only as an argon2id hash. `actor` is who created it, for the audit log. */
export async function createCredential(input: CreateCredentialInput & { actor?: string }, db: Db) {
  const data = ZCreateCredential.parse(input);
  const secretHash = await hashPassword(data.secret);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(apiCredentials)
        .values({ organizationId: data.organizationId, clientname: data.clientname, secretHash, role: data.role })
        .returning({ id: apiCredentials.id, clientname: apiCredentials.clientname, role: apiCredentials.role });
      await recordAuditEvent(
        { organizationId: data.organizationId, actor: input.actor ?? "system", action: "credential.created", target: row.clientname, detail: { credentialId: row.id, role: row.role } },
        tx,
      );
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error, "api_credentials_org_clientname_key")) {
      throw new AppError("CONFLICT", `la credencial ${data.clientname} ya existe`, "clientname");
    }
    throw error;
  }
}
