import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiCredentials, type CredentialRole } from "@/db/schema";
import { AppError } from "@/lib/errors";

/** Changes a live credential's role; tokens re-read the credential on every call, so it applies at once. */
export async function setCredentialRole(input: { organizationId: string; credentialId: string; role: CredentialRole }, db: Db) {
  const [row] = await db
    .update(apiCredentials)
    .set({ role: input.role })
    .where(and(eq(apiCredentials.id, input.credentialId), eq(apiCredentials.organizationId, input.organizationId), isNull(apiCredentials.revokedAt)))
    .returning({ clientname: apiCredentials.clientname, role: apiCredentials.role });
  if (!row) throw new AppError("NOT_FOUND", "la credencial no existe o está revocada");
  return row;
}
