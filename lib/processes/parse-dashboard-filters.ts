import { z } from "zod";
import { processStatuses } from "@/db/schema";
import { ZLabelName } from "@/lib/labels/schemas";
import type { ProcessCursor, ProcessPageFilters } from "./find-process-page";
import { ZListProcessesQuery, type ListProcessesQuery } from "./schemas";
import { zoneOffsetOnDay } from "@/lib/i18n/time-zones";

const blank = (v: unknown) => (v === "" ? undefined : v);
const day = z.preprocess(blank, z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional());

/** The list page's query string: plain form fields a person can bookmark. Dates are whole days in the organization's zone. */
export const ZDashboardProcessFilters = z.object({
  status: z.preprocess(blank, z.enum(processStatuses).optional()),
  from: day,
  to: day,
  label: z.preprocess(blank, ZLabelName.optional()),
  doc_id: z.preprocess(blank, z.string().trim().max(20).optional()),
  after: z.preprocess(blank, z.string().max(400).optional()),
  limit: z.preprocess(blank, z.coerce.number().int().min(1).max(100).optional()),
});
export type DashboardProcessFilters = z.infer<typeof ZDashboardProcessFilters>;

const compact = (isoDay: string, time: string, timeZone: string) => `${isoDay.replaceAll("-", "")}T${time}${zoneOffsetOnDay(timeZone, isoDay, time)}`;

export function encodeCursor(cursor: ProcessCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

/** Maps the page's filters onto the process API's own query schema, so both validate dates and cursors alike. */
export function parseDashboardFilters(params: Record<string, string | string[] | undefined>, timeZone: string): {
  form: DashboardProcessFilters;
  query: ListProcessesQuery;
  filters: ProcessPageFilters;
} {
  const flat = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  const parsed = ZDashboardProcessFilters.safeParse(flat);
  const form = parsed.success ? parsed.data : {};
  let lastItem: string | undefined;
  try {
    lastItem = form.after ? Buffer.from(form.after, "base64url").toString("utf8") : undefined;
  } catch {
    lastItem = undefined;
  }
  const base = {
    limit: form.limit ?? 20,
    status: form.status,
    creation_start: form.from ? compact(form.from, "00:00:00", timeZone) : undefined,
    creation_end: form.to ? compact(form.to, "23:59:59", timeZone) : undefined,
  };
  // a tampered cursor restarts at the first page instead of dropping the filters
  const query = ZListProcessesQuery.safeParse({ ...base, last_item: lastItem });
  return {
    form,
    query: query.success ? query.data : ZListProcessesQuery.parse(base),
    filters: { label: form.label, signerDocId: form.doc_id },
  };
}
