import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiCredentials } from "@/db/schema";
import { AppError } from "@/lib/errors";

/** Revokes a credential: its login and every token it holds stop working at the next request. The row stays for the record. */
export async function revokeCredential(input: { organizationId: string; credentialId: string }, db: Db) {
  const [row] = await db
    .update(apiCredentials)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiCredentials.id, input.credentialId), eq(apiCredentials.organizationId, input.organizationId), isNull(apiCredentials.revokedAt)))
    .returning({ clientname: apiCredentials.clientname });
  if (!row) throw new AppError("NOT_FOUND", "la credencial no existe o ya está revocada");
  return row;
}
