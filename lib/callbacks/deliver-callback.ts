import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, outboxAttempts, processes } from "@/db/schema";
import type { ClaimedJob } from "@/lib/outbox/claim-due-jobs";
import { PermanentJobFailure } from "@/lib/outbox/run-dispatcher";
import { readJobPayload } from "@/lib/outbox/job-payloads";
import { documentLinkUrl } from "@/lib/processes/document-link";
import { selfieLinkUrl } from "@/lib/processes/selfie-link";
import { formatProcess } from "@/lib/processes/format-process";
import { loadProcessRecords } from "@/lib/processes/load-process-records";
import type { LinkSettings } from "@/lib/processes/link-token";
import { callbackEventOf, callbackSigningSecrets, callbackSignature, standardWebhookHeaders } from "./callback-secret";
import { BlockedTargetError, postWebhook } from "@/lib/outbound-http/post-webhook";

export const CALLBACK_TIMEOUT_MS = 10_000;

/**
 * outbox `callback.deliver` {processId, status}: POSTs the process payload (epoch-second dates, fresh
 * 120 s document links) signed with the organization's secret, as `X-Signature` and as Standard
 * Webhooks headers (with the previous secret too while a rotation overlaps) whose `webhook-id` is the same on every retry of the event. Any 2xx is delivered; every try is
 * logged in outbox_attempts; the dispatcher retries failures with backoff (decision 16).
 */
export async function deliverCallback(job: ClaimedJob, { db, settings, clock = Date.now }: { db: Db; settings: LinkSettings; clock?: () => number }): Promise<void> {
  const payload = readJobPayload(job, ["callback.deliver"]);
  const processId = payload.processId;
  const [row] = await db
    .select({ process: processes, organization: organizations })
    .from(processes)
    .innerJoin(organizations, eq(processes.organizationId, organizations.id))
    .where(and(eq(processes.id, processId), job.organizationId ? eq(processes.organizationId, job.organizationId) : undefined))
    .limit(1);
  if (!row) throw new PermanentJobFailure(`process ${processId} not found`);
  if (!row.process.urlCallback) return;
  const [record] = await loadProcessRecords([row.process], db);
  const now = clock();
  const body = JSON.stringify(formatProcess(record, { dates: "epoch", documentUrl: (d) => documentLinkUrl(d, settings, now), selfieUrl: (o) => selfieLinkUrl(o, settings, now) }));
  // the event was fixed when the job was queued; rows queued before that carry only the process id
  const event = payload.status !== undefined ? callbackEventOf(processId, payload.status) : callbackEventOf(processId, row.process.status);
  // X-Signature keeps one value (decision 16): the current secret; the Standard Webhooks header carries both during an overlap
  const [secret, ...previous] = callbackSigningSecrets(settings.secretKey, row.organization, now);
  const started = Date.now();
  const log = (outcome: "delivered" | "failed", detail: string) =>
    db.insert(outboxAttempts).values({ outboxId: job.id, attempt: job.attempts, outcome, detail: detail.slice(0, 500), durationMs: Date.now() - started });
  let status: number;
  try {
    ({ status } = await postWebhook(row.process.urlCallback, body, {
      headers: {
        "x-signature": callbackSignature(secret, body),
        "x-firmaviva-event": event.event,
        ...standardWebhookHeaders([secret, ...previous], { id: event.webhookId, timestamp: Math.floor(now / 1000), body }),
      },
      allowPrivate: row.organization.allowPrivateCallbacks,
      timeoutMs: CALLBACK_TIMEOUT_MS,
    }));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await log("failed", message);
    if (error instanceof BlockedTargetError) throw new PermanentJobFailure(message);
    throw error;
  }
  if (status < 200 || status >= 300) {
    await log("failed", `HTTP ${status}`);
    throw new Error(`callback answered HTTP ${status}`);
  }
  await log("delivered", `HTTP ${status}`);
}
