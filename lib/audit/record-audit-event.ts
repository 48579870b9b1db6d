import { desc, eq, is, isNull, sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { auditLog } from "@/db/schema";
import { GENESIS_HASH, hashAuditEntry } from "./hash-audit-entry";

export type AuditAction =
  | "staff.login"
  | "staff.login_failed"
  | "staff.password_changed"
  | "staff.password_reset"
  | "stamp_token.issued"
  | "process_token.issued"
  | "credential.created"
  | "credential.revoked"
  | "credential.role_changed"
  | "credential.granted"
  | "credential.reassigned"
  | "staff.removed"
  | "callback_secret.revealed"
  | "callback_secret.rotated"
  | "process.created"
  | "process.modified"
  | "process.rejected"
  | "process.notified"
  | "process.evidence_exported"
  | "signer.signed"
  | "signer.unlocked"
  | "stamp.signature_requested"
  | "registry_photo.saved"
  | "registry_photo.replaced"
  | "registry_photo.deleted"
  | "identity_registry.imported"
  | "selfie.read"
  | "organization.suspended"
  | "organization.reactivated"
  | "organization.settings_changed"
  | "organization.private_callbacks_allowed"
  | "organization.private_callbacks_refused"
  | "certificate_holder.enrolled"
  | "identity_review.approved"
  | "identity_review.rejected"
  | "identity_review.sole_reviewer_exception"
  | "organization.identity_review_switched"
  | "organization.identity_provider_saved"
  | "organization.identity_provider_removed";

export type AuditEvent = {
  /** null for platform events that belong to no organization (e.g. a login with an unknown e-mail). */
  organizationId: string | null;
  /** Staff e-mail, API clientname, or who else acted. */
  actor: string;
  action: AuditAction;
  target?: string;
  detail?: Record<string, unknown>;
};

/**
 * Appends one entry to its organization's chain. Pass the caller's transaction to make the entry
 * part of the change it describes; the advisory lock serializes appends per organization so two
 * writers cannot both chain onto the same last hash. The lock lasts until the outer transaction ends.
 */
export async function recordAuditEvent(event: AuditEvent, db: Db): Promise<{ id: number; hash: string }> {
  // jsonb drops undefined and normalizes numbers; hash exactly what will be read back
  const detail = JSON.parse(JSON.stringify(event.detail ?? {})) as Record<string, unknown>;
  const organizationId = event.organizationId;
  const append = async (tx: Db) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`audit:${organizationId ?? "platform"}`}))`);
    const [last] = await tx
      .select({ hash: auditLog.hash })
      .from(auditLog)
      .where(organizationId === null ? isNull(auditLog.organizationId) : eq(auditLog.organizationId, organizationId))
      .orderBy(desc(auditLog.id))
      .limit(1);
    const prevHash = last?.hash ?? GENESIS_HASH;
    const entry = { organizationId, occurredAt: new Date(), actor: event.actor, action: event.action, target: event.target ?? "", detail };
    const hash = hashAuditEntry(prevHash, entry);
    const [row] = await tx
      .insert(auditLog)
      .values({ ...entry, prevHash, hash })
      .returning({ id: auditLog.id, hash: auditLog.hash });
    return row;
  };
  // inside the caller's transaction the entry needs no savepoint of its own: if it fails, so does the change it describes
  return isTransaction(db) ? append(db) : db.transaction(append);
}

// a plain boolean, not a type guard: a transaction is a Db to the code above. drizzle's is(), not
// instanceof: the bundle may hold the pg-core classes twice
function isTransaction(db: Db): boolean {
  return is(db, PgTransaction);
}
