import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { labels } from "@/db/schema";
import type { ProcessCaller } from "@/lib/auth/verify-process-token";
import { AppError } from "@/lib/errors";

/**
 * DELETE /api/labels: removes the caller's label of that exact (case-sensitive) name. Processes
 * keep the names they were created with. An unknown label is a bad request (the spec has no 404).
 */
export async function deleteLabel(input: { caller: ProcessCaller; label: string }, db: Db): Promise<"ok"> {
  const deleted = await db
    .delete(labels)
    .where(and(eq(labels.organizationId, input.caller.organizationId), eq(labels.usrId, input.caller.clientname), eq(labels.name, input.label)))
    .returning({ id: labels.id });
  if (deleted.length === 0) throw new AppError("VALIDATION", `la etiqueta ${input.label} no existe`, "label");
  return "ok";
}
