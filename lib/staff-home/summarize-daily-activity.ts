import { and, eq, gte, isNotNull, lte, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { processes, processSigners, stampTransactions } from "@/db/schema";
import { zoneOffsetOnDay } from "@/lib/i18n/time-zones";

export type DailyActivity = {
  /** YYYY-MM-DD in the organization's time zone. */
  day: string;
  stampSignatures: number;
  signerSignatures: number;
  processesCreated: number;
  processesCompleted: number;
};

const DAY_MS = 24 * 3600 * 1000;

/** The calendar day `date` falls on in `timeZone`, as YYYY-MM-DD. */
export function dayIn(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(date);
}

/** The `days` calendar days ending today in `timeZone`, oldest first. */
export function lastDays(now: Date, days: number, timeZone: string): string[] {
  const today = dayIn(now, timeZone);
  const noon = Date.parse(`${today}T12:00:00Z`);
  return Array.from({ length: days }, (_, i) => new Date(noon - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/**
 * Per day of the last `days` days (whole days in the organization's zone): stamp-API signatures,
 * process-signer signatures, processes created and processes completed. Each figure is one grouped
 * count over a range of an (organization, time) index, so the cost follows the month's activity,
 * not the organization's history.
 */
export async function summarizeDailyActivity(input: { organizationId: string; timeZone: string; now: Date; days: number }, deps: { db: Db }): Promise<DailyActivity[]> {
  const { db } = deps;
  const days = lastDays(input.now, input.days, input.timeZone);
  const start = new Date(`${days[0]}T00:00:00${zoneOffsetOnDay(input.timeZone, days[0], "00:00:00")}`);
  const perDay = async (table: typeof processes | typeof processSigners | typeof stampTransactions, column: AnyPgColumn, organization: AnyPgColumn, extra?: SQL) => {
    const day = sql<string>`to_char(${column} at time zone ${input.timeZone}, 'YYYY-MM-DD')`;
    const rows = await db
      .select({ day, count: sql<number>`count(*)::int` })
      .from(table)
      .where(and(eq(organization, input.organizationId), isNotNull(column), gte(column, start), lte(column, input.now), extra))
      .groupBy(sql`1`); // by position: the zone is a parameter, and two parameters never compare equal
    return new Map(rows.map((r) => [r.day, Number(r.count)]));
  };
  const [stamps, signers, created, completed] = await Promise.all([
    // a stamp signature is a signPDF transaction that produced its file
    perDay(stampTransactions, stampTransactions.completedAt, stampTransactions.organizationId, sql`${stampTransactions.status} = 'done' and ${stampTransactions.operation} = 'signPDF'`),
    perDay(processSigners, processSigners.signedAt, processSigners.organizationId),
    perDay(processes, processes.createdAt, processes.organizationId),
    // completed: every signer signed (rejected and expired processes end too, but are not completed)
    perDay(processes, processes.completedAt, processes.organizationId, sql`${processes.status} = 'signed'`),
  ]);
  return days.map((day) => ({
    day,
    stampSignatures: stamps.get(day) ?? 0,
    signerSignatures: signers.get(day) ?? 0,
    processesCreated: created.get(day) ?? 0,
    processesCompleted: completed.get(day) ?? 0,
  }));
}
