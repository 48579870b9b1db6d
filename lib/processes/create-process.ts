import crypto from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { labels, organizationIdentityProviders, organizations, processDocuments, processes, processSigners } from "@/db/schema";
import type { ProcessCaller } from "@/lib/auth/verify-process-token";
import type { BlobStore } from "@/lib/blob-store/blob-store";
import { sha256Hex } from "@/lib/crypto/derive-key";
import { AppError } from "@/lib/errors";
import type { UploadedFile } from "@/lib/request-reading/parse-multipart";
import { inspectUploadedPdfs } from "./inspect-uploaded-pdfs";
import { acceptPdfInPool } from "@/lib/verification/accept-pdf-in-pool";
import type { VerificationTasks } from "@/lib/verification/verification-tasks";
import type { TaskRunner } from "@/lib/runtime/cpu-pool";
import { issueSigningLinks, linksMessage } from "./issue-signing-links";
import type { LinkSettings } from "./link-token";
import { planStampPositions } from "./plan-stamp-positions";
import { queueSignerNotifications } from "./queue-signer-notifications";
import { recordProcessEvent } from "./record-process-event";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { CreatedProcess, CreateProcessFields } from "./schemas";

export function newProcessId(): string {
  return `${crypto.randomBytes(16).toString("hex")}:${crypto.randomBytes(8).toString("hex")}`;
}

/**
 * PUT /api/signature_processes: validates signers, labels and every PDF, stores the originals,
 * then writes the process, its documents, signers, links, notifications and timeline in one
 * transaction. Organizations that require approval get `approvalPending` and no links yet.
 */
export async function createProcess(
  input: { caller: ProcessCaller; fields: CreateProcessFields; files: UploadedFile[] },
  { db, ...deps }: { db: Db; blobs: BlobStore; links: LinkSettings; pools: { cpu: TaskRunner<VerificationTasks> } },
): Promise<CreatedProcess> {
  const { caller, fields } = input;
  const [organization] = await db.select().from(organizations).where(eq(organizations.id, caller.organizationId)).limit(1);
  if (!organization) throw new AppError("NOT_FOUND");
  fields.signers.forEach((signer, i) => {
    if (!organization.enabledNationalities.includes(signer.nat)) {
      throw new AppError("VALIDATION", `nat ${signer.nat} no está habilitado para la organización`, `signers.${i}.nat`);
    }
  });
  await assertEidProviderFor(caller.organizationId, fields.signers, db);
  await assertLabelsExist(caller.organizationId, fields.labels, db);
  const pdfs = await inspectUploadedPdfs(input.files, { accept: (bytes) => acceptPdfInPool(bytes, deps.pools.cpu) });
  const stampPositions = planStampPositions(
    fields.signers.map((s, i) => ({ key: `signers.${i}`, requested: s.stampPositions })),
    pdfs.map((p) => ({ index: p.index, pages: p.pages })),
  );

  const id = newProcessId();
  const now = new Date();
  const expireAt = new Date(now.getTime() + fields.expire * 1000);
  const linkExpireAt = new Date(now.getTime() + (fields.link_expire ?? fields.expire) * 1000);
  const documents = await Promise.all(
    pdfs.map(async (pdf) => {
      const key = `${caller.organizationId}/processes/${id.replace(":", "-")}/${pdf.index}-original.pdf`;
      await deps.blobs.put(key, pdf.bytes, "application/pdf");
      return { ...pdf, key, sha256: sha256Hex(pdf.bytes) };
    }),
  );
  const status = organization.requireApproval ? "approval_pending" : "pending";

  try {
    return await db.transaction(async (tx) => {
      await tx.insert(processes).values({
        id,
        organizationId: caller.organizationId,
        status,
        description: fields.description,
        signOrder: fields.signOrder,
        expireAt,
        linkExpireAt,
        urlCallback: fields.urlCallback ?? "",
        labels: fields.labels,
        readChallenges: fields.readChallenges,
        createdBy: caller.credentialId,
        createdByName: caller.clientname,
        createdAt: now,
      });
      await tx.insert(processDocuments).values(
        documents.map((d) => ({
          processId: id,
          organizationId: caller.organizationId,
          index: d.index,
          name: d.name,
          pages: d.pages,
          originalBlobKey: d.key,
          originalSha256: d.sha256,
          currentBlobKey: d.key,
          sha256: d.sha256,
        })),
      );
      const signers = await tx
        .insert(processSigners)
        .values(
          fields.signers.map((s, i) => ({
            processId: id,
            organizationId: caller.organizationId,
            position: i,
            nat: s.nat,
            docId: s.doc_id,
            signatureType: s.signatureType,
            signChallenges: s.signChallenges,
            stampPositions: stampPositions.get(`signers.${i}`)!,
            contactInfo: s.contactInfo ? { ...s.contactInfo, notified: false } : null,
            signerAlias: s.signerAlias ?? "",
            proposedPinfo: s.pinfo ?? null,
          })),
        )
        .returning();
      await recordProcessEvent({ processId: id, organizationId: caller.organizationId, kind: "created", actor: caller.clientname, detail: { status } }, tx);
      await recordAuditEvent(
        { organizationId: caller.organizationId, actor: caller.clientname, action: "process.created", target: id, detail: { status, signers: signers.length, documents: documents.length, repaired: documents.filter((d) => d.repaired).map((d) => d.index) } },
        tx,
      );
      if (status === "approval_pending") return { id, msg: "approvalPending" };
      const links = await issueSigningLinks(
        { processId: id, organizationId: caller.organizationId, linkMode: organization.linkMode, signers, expiresAt: linkExpireAt },
        { db: tx, settings: deps.links },
      );
      await queueSignerNotifications({ processId: id, organizationId: caller.organizationId, signOrder: fields.signOrder, signers, links }, tx);
      return { id, msg: linksMessage(links, organization.linkMode) };
    });
  } catch (error) {
    await Promise.all(documents.map((d) => deps.blobs.delete(d.key).catch(() => undefined)));
    throw error;
  }
}

async function assertLabelsExist(organizationId: string, names: string[], db: Db) {
  if (names.length === 0) return;
  const found = await db
    .selectDistinct({ name: labels.name })
    .from(labels)
    .where(and(eq(labels.organizationId, organizationId), inArray(labels.name, names)));
  const known = new Set(found.map((r) => r.name));
  const missing = names.find((n) => !known.has(n));
  if (missing !== undefined) throw new AppError("VALIDATION", `la etiqueta ${missing} no existe`, "labels");
}

/** A signer with the `eid` challenge needs the organization's OIDC provider, or nobody could ever identify them. */
async function assertEidProviderFor(organizationId: string, signers: CreateProcessFields["signers"], db: Db): Promise<void> {
  const index = signers.findIndex((s) => s.signChallenges.includes("eid"));
  if (index < 0) return;
  const [provider] = await db.select({ id: organizationIdentityProviders.id }).from(organizationIdentityProviders).where(eq(organizationIdentityProviders.organizationId, organizationId)).limit(1);
  if (!provider) throw new AppError("VALIDATION", "signChallenges eid requiere que la organización configure un proveedor de identidad OpenID Connect", `signers.${index}.signChallenges`);
}
