import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiCredentials, stampApiTokens } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { revokeStaffSessions } from "./staff-sessions";

/**
 * Ends everything a staff member's password opened: dashboard sessions, stamp-API
 * v2/v3 tokens, and process-API credentials whose secret may be that password. Called in the
 * transaction that changes or resets the password or disables the user.
 */
export async function endStaffCredentials(input: { userId: string; organizationId: string; actor: string }, tx: Db): Promise<void> {
  await revokeStaffSessions({ userId: input.userId }, tx);
  await tx.delete(stampApiTokens).where(eq(stampApiTokens.userId, input.userId));
  const revoked = await tx
    .update(apiCredentials)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiCredentials.passwordOfUserId, input.userId), isNull(apiCredentials.revokedAt)))
    .returning({ id: apiCredentials.id, clientname: apiCredentials.clientname });
  for (const credential of revoked) {
    await recordAuditEvent(
      { organizationId: input.organizationId, actor: input.actor, action: "credential.revoked", target: credential.clientname, detail: { credentialId: credential.id, reason: "its secret was the password of a staff member whose password changed or who was removed" } },
      tx,
    );
  }
}
