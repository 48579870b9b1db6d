import { sha256Hex } from "@/lib/crypto/derive-key";

/** prev_hash of the first entry of every chain. */
export const GENESIS_HASH = "0".repeat(64);

export type AuditEntryContent = {
  organizationId: string | null;
  occurredAt: Date;
  actor: string;
  action: string;
  target: string;
  detail: Record<string, unknown>;
};

/** JSON with object keys sorted at every level, so jsonb's own key order never changes a hash. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The text hashed after prev_hash: the entry as canonical JSON. */
export function auditEntryContent(entry: AuditEntryContent): string {
  return canonicalJson({
    organizationId: entry.organizationId,
    occurredAt: entry.occurredAt.toISOString(),
    actor: entry.actor,
    action: entry.action,
    target: entry.target,
    detail: entry.detail,
  });
}

/** hash = sha256(prev_hash || canonical JSON of the entry), hex (appendAuditEntry computes the same in SQL). */
export function hashAuditEntry(prevHash: string, entry: AuditEntryContent): string {
  return sha256Hex(prevHash + auditEntryContent(entry));
}
