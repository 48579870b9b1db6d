import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { labels } from "@/db/schema";
import type { ProcessCaller } from "@/lib/auth/verify-process-token";

/** POST /api/labels: creates the caller's label, or touches it when it exists (idempotent, one row per owner and name). */
export async function saveLabel(input: { caller: ProcessCaller; label: string }, db: Db): Promise<"ok"> {
  await db
    .insert(labels)
    .values({ organizationId: input.caller.organizationId, usrId: input.caller.clientname, name: input.label })
    .onConflictDoUpdate({ target: [labels.organizationId, labels.usrId, labels.name], set: { updatedAt: sql`now()` } });
  return "ok";
}
