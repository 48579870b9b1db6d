import crypto from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiCredentials } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { hashPassword } from "@/lib/auth/password-hash";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

export type ReassignedCredential = { clientname: string; secret: string };

/** Fresh secrets hashed before the removal's transaction opens: argon2id is slow and the transaction holds locks. */
export async function prepareReassignment(credentialIds: readonly string[]) {
  return Promise.all(
    [...new Set(credentialIds)].map(async (credentialId) => {
      const secret = crypto.randomBytes(24).toString("base64url");
      return { credentialId, secret, secretHash: await hashPassword(secret) };
    }),
  );
}

/**
 * The credentials a departing staff member created (they saw every secret): the ones an owner
 * re-assigns get a new secret and the owner as creator, and tokens of the old secret end; the
 * rest are revoked. Runs in the removal's transaction.
 */
export async function settleDepartedCredentials(
  input: { organizationId: string; departedUserId: string; departedEmail: string; newCreator: { userId: string; email: string }; reassign: Awaited<ReturnType<typeof prepareReassignment>> },
  tx: Db,
): Promise<ReassignedCredential[]> {
  const created = await tx
    .select({ id: apiCredentials.id, clientname: apiCredentials.clientname })
    .from(apiCredentials)
    .where(and(eq(apiCredentials.organizationId, input.organizationId), eq(apiCredentials.createdByUserId, input.departedUserId), isNull(apiCredentials.revokedAt)))
    .for("update");
  const byId = new Map(created.map((c) => [c.id, c]));
  const unknown = input.reassign.find((r) => !byId.has(r.credentialId));
  if (unknown) throw new AppError("VALIDATION", "solo se pueden reasignar credenciales activas creadas por quien se quita", "reassign");
  const reassigned: ReassignedCredential[] = [];
  for (const { credentialId, secret, secretHash } of input.reassign) {
    const credential = byId.get(credentialId)!;
    await tx
      .update(apiCredentials)
      .set({ secretHash, createdByUserId: input.newCreator.userId, secretGeneration: sql`${apiCredentials.secretGeneration} + 1` })
      .where(eq(apiCredentials.id, credentialId));
    await recordAuditEvent(
      { organizationId: input.organizationId, actor: input.newCreator.email, action: "credential.reassigned", target: credential.clientname, detail: { credentialId, from: input.departedEmail, to: input.newCreator.email, secretRotated: true } },
      tx,
    );
    byId.delete(credentialId);
    reassigned.push({ clientname: credential.clientname, secret });
  }
  for (const credential of byId.values()) {
    await tx.update(apiCredentials).set({ revokedAt: new Date() }).where(eq(apiCredentials.id, credential.id));
    await recordAuditEvent(
      { organizationId: input.organizationId, actor: input.newCreator.email, action: "credential.revoked", target: credential.clientname, detail: { credentialId: credential.id, reason: `created by ${input.departedEmail}, who was removed` } },
      tx,
    );
  }
  return reassigned;
}
