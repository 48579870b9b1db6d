import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { GENESIS_HASH, auditEntryContent } from "./hash-audit-entry";
import { executedRows } from "@/db/executed-rows";

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

/** The unique constraint that keeps each chain linear: no two entries follow the same one. */
export const AUDIT_CHAIN_KEY = "audit_log_chain_key";

const MAX_APPENDS = 100;

/**
 * Appends one entry to its organization's chain in one statement (appendAuditEntry). Pass the
 * caller's transaction to make the entry part of the change it describes. Two writers that read
 * the same last entry cannot both link to it (AUDIT_CHAIN_KEY): the later one waits for the
 * earlier to end, writes nothing, and appends again after it (each statement sees what committed
 * before it, READ COMMITTED); a statement that writes nothing leaves the caller's transaction intact.
 */
export async function recordAuditEvent(event: AuditEvent, db: Db): Promise<{ id: number; hash: string }> {
  for (let attempt = 0; attempt < MAX_APPENDS; attempt++) {
    const [row] = executedRows<{ id: number | string; hash: string }>(await db.execute(appendAuditEntry(event, "skip")));
    if (row) return { id: Number(row.id), hash: row.hash };
  }
  throw new Error(`audit chain of ${event.organizationId ?? "platform"}: no append in ${MAX_APPENDS} attempts`);
}

/**
 * The statement that appends `event` after the last entry of its chain, with the hash computed by
 * the database from the same canonical text as hashAuditEntry. When another writer took that last
 * entry first, "skip" writes nothing (and returns no row), "fail" raises a unique violation of
 * AUDIT_CHAIN_KEY, which undoes the whole statement it is part of (recordStampTransaction).
 */
export function appendAuditEntry(event: AuditEvent, onFork: "skip" | "fail"): SQL {
  // jsonb drops undefined and normalizes numbers; hash exactly what will be read back
  const detail = JSON.parse(JSON.stringify(event.detail ?? {})) as Record<string, unknown>;
  const organizationId = event.organizationId;
  const entry = { organizationId, occurredAt: new Date(), actor: event.actor, action: event.action, target: event.target ?? "", detail };
  // The head is read down the chain's own index (organization_id, id). Ordered by id alone, the
  // planner may walk the primary key back through every entry other organizations wrote since this
  // chain's last one (40,000 rows for a quiet organization in db/history-bounded-lookups.test.ts).
  // An equality would make organization_id a constant and drop it from the order; a range keeps it,
  // and only that index gives (organization_id, id) order. The same rows either way.
  const chain = organizationId === null ? sql`organization_id is null` : sql`organization_id >= ${organizationId}::uuid and organization_id <= ${organizationId}::uuid`;
  return sql`insert into audit_log (organization_id, occurred_at, actor, action, target, detail, prev_hash, hash)
    select ${organizationId}::uuid, ${entry.occurredAt.toISOString()}::timestamptz, ${entry.actor}, ${entry.action}, ${entry.target}, ${JSON.stringify(detail)}::jsonb,
      last.hash, encode(sha256(convert_to(last.hash || ${auditEntryContent(entry)}, 'UTF8')), 'hex')
    from (select coalesce((select hash from audit_log where ${chain} order by organization_id desc, id desc limit 1), ${GENESIS_HASH}) as hash) as last
    ${onFork === "skip" ? sql`on conflict do nothing` : sql``}
    returning id, hash`;
}
