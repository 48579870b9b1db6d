import { z } from "zod";
import type { Db } from "@/db/client";
import { apiCredentials, credentialRoles } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { hashPassword } from "@/lib/auth/password-hash";
import { isUniqueViolation } from "@/db/is-unique-violation";

export const ZCreateCredential = z.object({
  organizationId: z.uuid(),
  clientname: z.email("clientname debe tener forma de e-mail").trim().toLowerCase(),
  secret: z.string().min(8, "el secreto debe tener al menos 8 caracteres").max(200),
  role: z.enum(credentialRoles),
});
export type CreateCredentialInput = z.input<typeof ZCreateCredential>;

/** A process-API credential. The secret is stored only as an argon2id hash. */
export async function createCredential(input: CreateCredentialInput, db: Db) {
  const data = ZCreateCredential.parse(input);
  const secretHash = await hashPassword(data.secret);
  try {
    const [row] = await db
      .insert(apiCredentials)
      .values({ organizationId: data.organizationId, clientname: data.clientname, secretHash, role: data.role })
      .returning({ id: apiCredentials.id, clientname: apiCredentials.clientname, role: apiCredentials.role });
    return row;
  } catch (error) {
    if (isUniqueViolation(error, "api_credentials_org_clientname_key")) {
      throw new AppError("CONFLICT", `la credencial ${data.clientname} ya existe`, "clientname");
    }
    throw error;
  }
}
