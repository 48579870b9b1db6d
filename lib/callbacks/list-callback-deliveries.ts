import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { outbox, outboxAttempts } from "@/db/schema";

export type CallbackDelivery = typeof outbox.$inferSelect & { log: (typeof outboxAttempts.$inferSelect)[] };

/** The callback jobs queued for one process (outbox `callback.deliver`) with every delivery attempt, newest job first. */
export async function listCallbackDeliveries(input: { organizationId: string; processId: string }, db: Db): Promise<CallbackDelivery[]> {
  const jobs = await db
    .select()
    .from(outbox)
    .where(
      and(
        eq(outbox.kind, "callback.deliver"),
        eq(outbox.organizationId, input.organizationId),
        sql`${outbox.payload}->>'processId' = ${input.processId}`,
      ),
    )
    .orderBy(desc(outbox.id))
    .limit(50);
  if (jobs.length === 0) return [];
  const attempts = await db
    .select()
    .from(outboxAttempts)
    .where(inArray(outboxAttempts.outboxId, jobs.map((j) => j.id)))
    .orderBy(asc(outboxAttempts.id));
  return jobs.map((job) => ({ ...job, log: attempts.filter((a) => a.outboxId === job.id) }));
}
