import { sql } from "drizzle-orm";
import { parse } from "csv-parse/sync";
import type { Db } from "@/db/client";
import { identityRegistryEntries } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { nationalIdProblem, normalizeDocId } from "@/lib/identity-registry/check-national-id";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { MAX_REGISTRY_ROWS, ZPersonNames } from "./schemas";

const COLUMNS = ["nat", "doc_id", "given_name", "family_name"] as const;

/**
 * Imports `nat,doc_id,given_name,family_name` rows (CSV with that header) into the organization's
 * registry, replacing the names of people already there. Every row is checked first: one bad row
 * refuses the whole file, naming its line, and nothing is written.
 */
export async function importIdentityRegistry(input: { organizationId: string; csv: string; actor: string }, db: Db): Promise<{ imported: number }> {
  const rows = readRows(input.csv);
  const seen = new Set<string>();
  const entries = rows.map((row, i) => {
    const line = i + 2; // the header is line 1
    const nat = String(row.nat ?? "").trim().toUpperCase();
    const docId = normalizeDocId(String(row.doc_id ?? ""));
    const problem = nationalIdProblem(nat, docId);
    if (problem) throw new AppError("VALIDATION", `línea ${line}: ${problem}`, "csv");
    const names = ZPersonNames.safeParse(row);
    if (!names.success) throw new AppError("VALIDATION", `línea ${line}: ${names.error.issues[0].message}`, "csv");
    const key = `${nat}:${docId}`;
    if (seen.has(key)) throw new AppError("VALIDATION", `línea ${line}: ${key} repetido`, "csv");
    seen.add(key);
    return { organizationId: input.organizationId, nat, docId, givenName: names.data.given_name, familyName: names.data.family_name };
  });
  await db.transaction(async (tx) => {
    for (let start = 0; start < entries.length; start += 500) {
      await tx
        .insert(identityRegistryEntries)
        .values(entries.slice(start, start + 500))
        .onConflictDoUpdate({
          target: [identityRegistryEntries.organizationId, identityRegistryEntries.nat, identityRegistryEntries.docId],
          set: { givenName: sql`excluded.given_name`, familyName: sql`excluded.family_name`, updatedAt: sql`now()` },
        });
    }
    await recordAuditEvent({ organizationId: input.organizationId, actor: input.actor, action: "identity_registry.imported", detail: { rows: entries.length } }, tx);
  });
  return { imported: entries.length };
}

function readRows(csv: string): Record<string, string>[] {
  let rows: Record<string, string>[];
  try {
    rows = parse(csv.replace(/^\uFEFF/, ""), { columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()), skip_empty_lines: true, trim: true, to: MAX_REGISTRY_ROWS + 1 });
  } catch (error) {
    throw new AppError("VALIDATION", `CSV ilegible: ${(error as Error).message.slice(0, 120)}`, "csv");
  }
  if (rows.length === 0) throw new AppError("VALIDATION", `el CSV no tiene filas; cabecera esperada: ${COLUMNS.join(",")}`, "csv");
  const missing = COLUMNS.filter((c) => !(c in rows[0]));
  if (missing.length > 0) throw new AppError("VALIDATION", `faltan columnas: ${missing.join(", ")} (cabecera esperada: ${COLUMNS.join(",")})`, "csv");
  if (rows.length > MAX_REGISTRY_ROWS) throw new AppError("VALIDATION", `hasta ${MAX_REGISTRY_ROWS} filas por archivo`, "csv");
  return rows;
}
