import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, processes, processSigners } from "@/db/schema";
import type { ProcessCaller } from "@/lib/auth/verify-process-token";
import { assertOpen, lockProcess } from "./conclude-process";
import { expireDueProcesses } from "./expire-due-processes";
import { issueSigningLinks, linksMessage } from "./issue-signing-links";
import type { LinkSettings } from "./link-token";
import { queueSignerNotifications } from "./queue-signer-notifications";
import { recordProcessEvent } from "./record-process-event";
import type { LinksMessage } from "./schemas";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

/**
 * POST /api/notify: new links (earlier ones stop working) that expire after link_expire seconds,
 * never later than the process; messages queued to signers with contact data. A process waiting
 * for approval gets no links: the answer is `approvalPending`.
 */
export async function notifyProcess(
  input: { caller: ProcessCaller; processId: string; linkExpire?: number },
  { db, settings }: { db: Db; settings: LinkSettings },
): Promise<LinksMessage> {
  const { caller } = input;
  await expireDueProcesses({ organizationId: caller.organizationId, processId: input.processId }, db);
  return db.transaction(async (tx) => {
    const process = await lockProcess({ organizationId: caller.organizationId, processId: input.processId }, tx);
    assertOpen(process);
    if (process.status === "approval_pending") return "approvalPending";
    const [organization] = await tx.select().from(organizations).where(eq(organizations.id, process.organizationId));
    const requested = input.linkExpire === undefined ? process.expireAt.getTime() : Date.now() + input.linkExpire * 1000;
    const expiresAt = new Date(Math.min(requested, process.expireAt.getTime()));
    await tx.update(processes).set({ linkExpireAt: expiresAt }).where(eq(processes.id, process.id));
    const signers = await tx.select().from(processSigners).where(eq(processSigners.processId, process.id)).orderBy(asc(processSigners.position));
    const pending = signers.filter((s) => s.status === "pending");
    const links = await issueSigningLinks(
      { processId: process.id, organizationId: process.organizationId, linkMode: organization.linkMode, signers: pending, expiresAt },
      { db: tx, settings },
    );
    const queued = await queueSignerNotifications(
      { processId: process.id, organizationId: process.organizationId, signOrder: process.signOrder, signers, links },
      tx,
    );
    await recordProcessEvent(
      { processId: process.id, organizationId: process.organizationId, kind: "links_issued", actor: caller.clientname, detail: { links: links.length, queued } },
      tx,
    );
    await recordAuditEvent(
      { organizationId: process.organizationId, actor: caller.clientname, action: "process.notified", target: process.id, detail: { links: links.length, queued, expiresAt: expiresAt.toISOString() } },
      tx,
    );
    return linksMessage(links, organization.linkMode);
  });
}
