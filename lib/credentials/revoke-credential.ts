import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiCredentials } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

/** Revokes a credential: its login and every token it holds stop working at the next request. The row stays for the record. */
export async function revokeCredential(input: { organizationId: string; credentialId: string; actor?: string }, db: Db) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(apiCredentials)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiCredentials.id, input.credentialId), eq(apiCredentials.organizationId, input.organizationId), isNull(apiCredentials.revokedAt)))
      .returning({ clientname: apiCredentials.clientname });
    if (!row) throw new AppError("NOT_FOUND", "la credencial no existe o ya está revocada");
    await recordAuditEvent(
      { organizationId: input.organizationId, actor: input.actor ?? "system", action: "credential.revoked", target: row.clientname, detail: { credentialId: input.credentialId } },
      tx,
    );
    return row;
  });
}
