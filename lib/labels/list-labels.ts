import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { labels } from "@/db/schema";
import type { LabelPage, ListLabelsQuery } from "./schemas";

/**
 * GET /api/labels: the organization's labels by name, descending (byte order, so case-sensitive
 * names sort the same on every database), then by owner; keyset-paged with {label, usr_id}.
 */
export async function listLabels(input: { organizationId: string; query: ListLabelsQuery }, db: Db): Promise<LabelPage> {
  const { query } = input;
  const name = sql`${labels.name} collate "C"`;
  const owner = sql`${labels.usrId} collate "C"`;
  const rows = await db
    .select({ label: labels.name, usr_id: labels.usrId })
    .from(labels)
    .where(
      and(
        eq(labels.organizationId, input.organizationId),
        query.last_item ? sql`(${name}, ${owner}) < (${query.last_item.label} collate "C", ${query.last_item.usr_id} collate "C")` : undefined,
      ),
    )
    .orderBy(sql`${name} desc`, sql`${owner} desc`)
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  if (rows.length <= query.limit) return { status: 200, body: { labels: page } };
  const last = page[page.length - 1];
  return { status: 206, body: { labels: page, last_item: { label: last.label, usr_id: last.usr_id } } };
}
