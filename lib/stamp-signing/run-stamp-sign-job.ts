import { eq } from "drizzle-orm";
import { stampTransactions } from "@/db/schema";
import { isAppError } from "@/lib/errors";
import { PermanentJobFailure, type JobHandler } from "@/lib/outbox/run-dispatcher";
import type { Services } from "@/lib/runtime/services";
import { loadAgentSigner } from "@/lib/certificates/load-agent-signer";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import { planStampSignature } from "./plan-stamp-signature";
import { acceptPdfInPool } from "@/lib/runtime/accept-pdf-in-pool";
import { signAndRecord, type StoredSignRequest } from "./request-stamp-signature";
import type { SignPdfFields } from "./schemas";

/**
 * The durable half of an async signPDF. A transaction that is no longer pending was already
 * finished (possibly by another instance whose lease expired), so it is never signed twice.
 */
export function stampSignJobHandler(services: Services): JobHandler {
  return async (job) => {
    const transactionId = String(job.payload.transactionId);
    const [row] = await services.db.select().from(stampTransactions).where(eq(stampTransactions.id, transactionId));
    if (!row || row.status !== "pending") return;
    const summary = row.summary as { request: StoredSignRequest; hasImage: boolean };
    const fields = summary.request as SignPdfFields;
    const prefix = `${row.organizationId}/stamp/${row.docId}`;
    const pdf = await services.blobs.get(`${prefix}/input.pdf`);
    const image = summary.hasImage ? ((await services.blobs.get(`${prefix}/image`)) ?? undefined) : undefined;
    if (!pdf) {
      await services.db.update(stampTransactions).set({ status: "failed", failureMessage: "El documento de entrada ya no está disponible" }).where(eq(stampTransactions.id, transactionId));
      throw new PermanentJobFailure("input blob missing");
    }
    try {
      const plan = await planStampSignature(fields, pdf, image, { accept: acceptPdfInPool });
      const signer = await loadAgentSigner(row.organizationId, services.db, pkiSettingsOf(services.config));
      await signAndRecord({ txToken: row.txToken, docId: row.docId, organizationId: row.organizationId, pdf: plan.pdf, image, fields, plan, signer }, services);
    } catch (error) {
      // the failure message is recorded on the transaction; only our own faults are worth a retry
      if (isAppError(error) && error.code !== "INTERNAL" && error.code !== "SIGNING_FAILED") throw new PermanentJobFailure(error.message);
      throw error;
    }
  };
}
