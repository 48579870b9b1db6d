import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processDocuments, processes, processSigners, type SignerContact } from "@/db/schema";
import type { ProcessCaller } from "@/lib/auth/verify-process-token";
import { AppError } from "@/lib/errors";
import { assertOpen, concludeProcess, lockProcess } from "./conclude-process";
import { expireDueProcesses } from "./expire-due-processes";
import { findActiveLinks } from "./issue-signing-links";
import { planStampPositions } from "./plan-stamp-positions";
import { queueSignerNotifications } from "./queue-signer-notifications";
import { recordProcessEvent } from "./record-process-event";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { ModifyProcessInput } from "./schemas";

/**
 * POST /api/signature_processes: description and signers (update alias, stamp style, contact;
 * remove). doc_id identifies a signer and never changes. Only open processes can change (403).
 */
export async function modifyProcess(input: { caller: ProcessCaller; data: ModifyProcessInput }, db: Db): Promise<"ok"> {
  const { caller, data } = input;
  await expireDueProcesses({ organizationId: caller.organizationId, processId: data.process_id }, db);
  return db.transaction(async (tx) => {
    const process = await lockProcess({ organizationId: caller.organizationId, processId: data.process_id }, tx);
    assertOpen(process);
    if (data.description !== undefined) await tx.update(processes).set({ description: data.description }).where(eq(processes.id, process.id));
    const signers = await tx.select().from(processSigners).where(eq(processSigners.processId, process.id)).orderBy(asc(processSigners.position));
    const changes = data.signers ?? [];
    const removed = new Set<string>();
    const contactChanged: string[] = [];
    const requested = new Map<string, NonNullable<(typeof changes)[number]["stampPositions"]>>();
    for (const [i, change] of changes.entries()) {
      const signer = signers.find((s) => s.nat === change.nat && s.docId === change.doc_id);
      if (!signer || removed.has(signer.id)) throw new AppError("VALIDATION", `no existe el firmante ${change.nat}:${change.doc_id}`, `signers.${i}.doc_id`);
      if (change.action === "remove") {
        if (signer.status !== "pending") throw new AppError("FORBIDDEN", `el firmante ${change.nat}:${change.doc_id} ya firmó o rechazó y no se puede quitar`);
        removed.add(signer.id);
        continue;
      }
      const contactInfo: SignerContact | null | undefined =
        change.contactInfo === undefined ? undefined : change.contactInfo && { ...change.contactInfo, notified: false };
      if (contactInfo !== undefined && signer.status === "pending") contactChanged.push(signer.id);
      if (change.stampPositions) {
        if (signer.status !== "pending") throw new AppError("FORBIDDEN", `el firmante ${change.nat}:${change.doc_id} ya firmó y su sello no cambia`);
        requested.set(signer.id, change.stampPositions);
      }
      const patch = {
        ...(change.signerAlias !== undefined ? { signerAlias: change.signerAlias } : {}),
        ...(contactInfo !== undefined ? { contactInfo } : {}),
        // only a proposal: names a signer already confirmed stay theirs
        ...(change.pinfo !== undefined && signer.status === "pending" ? { proposedPinfo: change.pinfo } : {}),
      };
      if (Object.keys(patch).length > 0) await tx.update(processSigners).set(patch).where(eq(processSigners.id, signer.id));
    }
    if (removed.size === signers.length) throw new AppError("VALIDATION", "el proceso no puede quedar sin firmantes", "signers");
    if (removed.size > 0) await tx.delete(processSigners).where(inArray(processSigners.id, [...removed]));
    const remaining = await tx.select().from(processSigners).where(eq(processSigners.processId, process.id)).orderBy(asc(processSigners.position));
    if (requested.size > 0) await replanStamps(process.id, remaining, requested, tx);
    await recordProcessEvent(
      { processId: process.id, organizationId: process.organizationId, kind: "modified", actor: caller.clientname, detail: { signers: changes.length, removed: removed.size } },
      tx,
    );
    await recordAuditEvent(
      {
        organizationId: process.organizationId,
        actor: caller.clientname,
        action: "process.modified",
        target: process.id,
        detail: { description: data.description !== undefined, signers: changes.length, removed: removed.size },
      },
      tx,
    );
    if (remaining.every((s) => s.status === "signed")) {
      await concludeProcess({ process, status: "signed", actor: caller.clientname }, tx);
    } else if (process.status === "pending" && contactChanged.length > 0) {
      const links = await findActiveLinks(process.id, tx);
      await queueSignerNotifications(
        { processId: process.id, organizationId: process.organizationId, signOrder: process.signOrder, signers: remaining, links, only: contactChanged },
        tx,
      );
    }
    return "ok" as const;
  });
}

async function replanStamps(
  processId: string,
  signers: (typeof processSigners.$inferSelect)[],
  requested: Map<string, NonNullable<NonNullable<ModifyProcessInput["signers"]>[number]["stampPositions"]>>,
  db: Db,
) {
  const documents = await db
    .select({ index: processDocuments.index, pages: processDocuments.pages })
    .from(processDocuments)
    .where(eq(processDocuments.processId, processId));
  const plan = planStampPositions(
    signers.map((s) => ({ key: s.id, requested: requested.get(s.id), current: s.stampPositions, signed: s.status === "signed" })),
    documents,
  );
  for (const signer of signers) {
    if (signer.status !== "pending") continue;
    await db
      .update(processSigners)
      .set({ stampPositions: plan.get(signer.id)! })
      .where(and(eq(processSigners.id, signer.id), eq(processSigners.processId, processId)));
  }
}
