import { z } from "zod";
import type { ClaimedJob } from "./claim-due-jobs";
import { PermanentJobFailure } from "./run-dispatcher";

const id = z.string().min(1).max(200);
const signingNotification = z.object({ processId: id, signerId: id, linkId: id });

/**
 * One schema per outbox kind: the payload is checked when the job is written (`enqueue`) and again
 * when its handler reads it (`readJobPayload`), since a row outlives the code that wrote it.
 */
const schemas = {
  "stamp.sign": z.object({ transactionId: id }),
  // `status` fixes the callback's event; rows queued before it existed carry only the process id
  "callback.deliver": z.object({ processId: id, status: z.string().min(1).max(40).optional() }),
  "email.send": signingNotification,
  "whatsapp.send": signingNotification,
  "identity.sign_after_review": z.object({ reviewId: id }),
};

type JobPayloads = { [K in keyof typeof schemas]: z.infer<(typeof schemas)[K]> };
export type OutboxKind = keyof JobPayloads;
export type JobPayload<K extends OutboxKind> = JobPayloads[K];
export const jobPayloadSchemas: { [K in OutboxKind]: z.ZodType<JobPayloads[K]> } = schemas;

function isOutboxKind(kind: string): kind is OutboxKind {
  return Object.hasOwn(jobPayloadSchemas, kind);
}

/** The payload as its kind's schema reads it, or why not (the fields at fault). */
export function checkJobPayload<K extends OutboxKind>(kind: K, payload: unknown): { ok: true; payload: JobPayload<K> } | { ok: false; reason: string } {
  const parsed = jobPayloadSchemas[kind].safeParse(payload);
  if (parsed.success) return { ok: true, payload: parsed.data };
  return { ok: false, reason: `${kind} payload: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"} ${issue.message}`).join("; ")}` };
}

/**
 * A handler's read of its job: the job must be of one of `kinds` and its payload must pass the
 * kind's schema, or the job fails for good (no retry mends a malformed row).
 */
export function readJobPayload<K extends OutboxKind>(job: Pick<ClaimedJob, "kind" | "payload">, kinds: readonly K[]): JobPayload<K> {
  const kind = kinds.find((candidate) => candidate === job.kind);
  if (!kind || !isOutboxKind(job.kind)) throw new PermanentJobFailure(`job of kind ${job.kind} given to the ${kinds.join("/")} handler`);
  const checked = checkJobPayload(kind, job.payload);
  if (!checked.ok) throw new PermanentJobFailure(checked.reason);
  return checked.payload;
}
