import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiCredentials, type CredentialRole } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

/** Changes a live credential's role; tokens re-read the credential on every call, so it applies at once. */
export async function setCredentialRole(input: { organizationId: string; credentialId: string; role: CredentialRole; actor?: string }, db: Db) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(apiCredentials)
      .set({ role: input.role })
      .where(and(eq(apiCredentials.id, input.credentialId), eq(apiCredentials.organizationId, input.organizationId), isNull(apiCredentials.revokedAt)))
      .returning({ clientname: apiCredentials.clientname, role: apiCredentials.role });
    if (!row) throw new AppError("NOT_FOUND", "la credencial no existe o está revocada");
    await recordAuditEvent(
      { organizationId: input.organizationId, actor: input.actor ?? "system", action: "credential.role_changed", target: row.clientname, detail: { credentialId: input.credentialId, role: row.role } },
      tx,
    );
    return row;
  });
}
