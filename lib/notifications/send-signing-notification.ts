import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, outboxAttempts, processes, processLinks, processSigners } from "@/db/schema";
import type { ClaimedJob } from "@/lib/outbox/claim-due-jobs";
import { PermanentJobFailure } from "@/lib/outbox/run-dispatcher";
import { readJobPayload } from "@/lib/outbox/job-payloads";
import { signingLinkUrl, type LinkSettings } from "@/lib/processes/link-token";
import { recordProcessEvent } from "@/lib/processes/record-process-event";
import { sendEmail, sendWhatsapp, type TransportSettings } from "./message-transports";
import { renderSigningMessage } from "./render-signing-message";

/**
 * outbox `email.send` / `whatsapp.send` {processId, signerId, linkId}: re-creates the link from its
 * id (the token is never stored) and sends it. A message whose link was replaced, or whose process
 * or signer is no longer waiting, is dropped: a newer message supersedes it.
 */
export async function sendSigningNotification(job: ClaimedJob, { db, settings }: { db: Db; settings: LinkSettings & { transports: TransportSettings } }): Promise<void> {
  const { processId, signerId, linkId } = readJobPayload(job, ["email.send", "whatsapp.send"]);
  const [row] = await db
    .select({ process: processes, organization: organizations, signer: processSigners, link: processLinks })
    .from(processSigners)
    .innerJoin(processes, eq(processSigners.processId, processes.id))
    .innerJoin(organizations, eq(processes.organizationId, organizations.id))
    .innerJoin(processLinks, and(eq(processLinks.id, linkId), eq(processLinks.processId, processes.id)))
    .where(and(eq(processSigners.id, signerId), eq(processes.id, processId)))
    .limit(1);
  if (!row) throw new PermanentJobFailure("process, signer or link not found");
  const { process, organization, signer, link } = row;
  const contact = signer.contactInfo;
  const stale = link.revokedAt || link.expiresAt.getTime() <= Date.now() || process.status !== "pending" || signer.status !== "pending";
  if (stale || !contact) return;
  const message = renderSigningMessage({
    organizationName: organization.displayName,
    description: process.description,
    link: signingLinkUrl(link.id, settings),
    linkExpiresAt: link.expiresAt,
    tz: contact.tz,
    signerAlias: signer.signerAlias,
  });
  const context = { organizationId: organization.id, processId: process.id };
  const started = Date.now();
  let detail: string;
  try {
    detail =
      contact.type === "email"
        ? await sendEmail({ message: { to: contact.value, subject: message.subject, text: message.text, html: message.html }, context }, { db, settings: settings.transports })
        : await sendWhatsapp({ message: { to: contact.value, body: message.whatsapp, templateParameters: message.whatsappTemplate }, context }, { db, settings: settings.transports });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await db.insert(outboxAttempts).values({ outboxId: job.id, attempt: job.attempts, outcome: "failed", detail: reason.slice(0, 500), durationMs: Date.now() - started });
    throw error;
  }
  await db.transaction(async (tx) => {
    await tx.insert(outboxAttempts).values({ outboxId: job.id, attempt: job.attempts, outcome: "delivered", detail, durationMs: Date.now() - started });
    await tx
      .update(processSigners)
      .set({ contactInfo: sql`jsonb_set(${processSigners.contactInfo}, '{notified}', 'true'::jsonb)` })
      .where(eq(processSigners.id, signer.id));
    await recordProcessEvent({ processId: process.id, organizationId: organization.id, kind: "notified", signerId: signer.id, detail: { channel: contact.type } }, tx);
  });
}
