import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, processes, processSigners } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { lockProcess } from "./conclude-process";
import { issueSigningLinks, linksMessage } from "./issue-signing-links";
import type { LinkSettings } from "./link-token";
import { queueSignerNotifications } from "./queue-signer-notifications";
import { recordProcessEvent } from "./record-process-event";

/**
 * Approval of a process created while the organization requires approval (dashboard approvals
 * inbox, permission processes:approve): it becomes pending, links are issued and signers told.
 */
export async function approveProcess(
  input: { organizationId: string; processId: string; actor: string },
  { db, settings }: { db: Db; settings: LinkSettings },
): Promise<string | { link: string; nat_dni: string }[]> {
  return db.transaction(async (tx) => {
    const process = await lockProcess({ organizationId: input.organizationId, processId: input.processId }, tx);
    if (process.status !== "approval_pending") throw new AppError("FORBIDDEN", `el proceso está ${process.status}`);
    if (process.expireAt.getTime() <= Date.now()) throw new AppError("GONE", "el proceso venció");
    const [organization] = await tx.select().from(organizations).where(eq(organizations.id, process.organizationId));
    await tx.update(processes).set({ status: "pending", approvedAt: new Date() }).where(eq(processes.id, process.id));
    const signers = await tx.select().from(processSigners).where(eq(processSigners.processId, process.id)).orderBy(asc(processSigners.position));
    const links = await issueSigningLinks(
      { processId: process.id, organizationId: process.organizationId, linkMode: organization.linkMode, signers, expiresAt: process.linkExpireAt },
      { db: tx, settings },
    );
    await queueSignerNotifications({ processId: process.id, organizationId: process.organizationId, signOrder: process.signOrder, signers, links }, tx);
    await recordProcessEvent({ processId: process.id, organizationId: process.organizationId, kind: "approved", actor: input.actor }, tx);
    return linksMessage(links, organization.linkMode);
  });
}
