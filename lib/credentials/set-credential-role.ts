import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiCredentials, type CredentialRole, type StaffRole } from "@/db/schema";
import type { GrantablePermission } from "@/lib/auth/roles";
import { AppError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { assertMayGrant } from "./assert-may-grant";

/**
 * Changes a live credential's role and, when given, its grants; tokens re-read the credential on
 * every call, so it applies at once. A grant it did not have needs a grantor who holds it;
 * withdrawing one needs only credentials:manage.
 */
export async function setCredentialRole(
  input: { organizationId: string; credentialId: string; role: CredentialRole; grants?: GrantablePermission[]; actor?: string; grantorRole?: StaffRole },
  db: Db,
) {
  return db.transaction(async (tx) => {
    const where = and(eq(apiCredentials.id, input.credentialId), eq(apiCredentials.organizationId, input.organizationId), isNull(apiCredentials.revokedAt));
    const [before] = await tx.select({ grants: apiCredentials.grants }).from(apiCredentials).where(where).for("update");
    if (!before) throw new AppError("NOT_FOUND", "la credencial no existe o está revocada");
    const grants = input.grants ?? (before.grants as GrantablePermission[]);
    const added = grants.filter((g) => !before.grants.includes(g));
    const withdrawn = before.grants.filter((g) => !grants.includes(g as GrantablePermission));
    assertMayGrant(added, input.grantorRole ? { role: input.grantorRole } : undefined);
    const [row] = await tx
      .update(apiCredentials)
      .set({ role: input.role, grants })
      .where(where)
      .returning({ clientname: apiCredentials.clientname, role: apiCredentials.role, grants: apiCredentials.grants });
    const actor = input.actor ?? "system";
    await recordAuditEvent(
      { organizationId: input.organizationId, actor, action: "credential.role_changed", target: row.clientname, detail: { credentialId: input.credentialId, role: row.role, grants: row.grants } },
      tx,
    );
    if (added.length || withdrawn.length) {
      await recordAuditEvent(
        { organizationId: input.organizationId, actor, action: "credential.granted", target: row.clientname, detail: { credentialId: input.credentialId, granted: added, withdrawn, grantorRole: input.grantorRole } },
        tx,
      );
    }
    return row;
  });
}
