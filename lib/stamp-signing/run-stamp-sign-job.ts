import { eq } from "drizzle-orm";
import { organizations, stampTransactions } from "@/db/schema";
import { isAppError } from "@/lib/errors";
import { PermanentJobFailure, type JobHandler } from "@/lib/outbox/run-dispatcher";
import { readJobPayload } from "@/lib/outbox/job-payloads";
import type { StampSigningDeps } from "./complete-stamp-signature";
import { loadAgentSigner } from "@/lib/certificates/load-agent-signer";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import { recordSignFailure, signFailureMessage, type StoredSignRequest } from "./request-stamp-signature";
import { signStampNow } from "./sign-stamp-now";
import type { SignPdfFields } from "./schemas";

/** Failures no retry can mend: the document, page, image or placement is at fault. */
const PERMANENT_CODES = new Set(["VALIDATION", "INVALID_PDF", "ENCRYPTED_PDF", "CERTIFIED_NO_CHANGES", "PAGE_NOT_FOUND", "STAMP_OUT_OF_PAGE", "INVALID_IMAGE", "NOT_FOUND"]);

/**
 * The durable half of an async signPDF. Transient failures (TSA unreachable, storage, a busy
 * worker pool, our own faults) are retried with the dispatcher's backoff and leave the transaction
 * pending; a bad document fails it at once with the reason. A transaction that is no longer pending
 * was already finished (possibly by an earlier attempt), so it is never signed twice.
 */
export function stampSignJobHandler(services: StampSigningDeps): JobHandler {
  const handler: JobHandler = async (job) => {
    const { transactionId } = readJobPayload(job, ["stamp.sign"]);
    const [joined] = await services.db
      .select({ transaction: stampTransactions, organizationDomain: organizations.domain })
      .from(stampTransactions)
      .innerJoin(organizations, eq(stampTransactions.organizationId, organizations.id))
      .where(eq(stampTransactions.id, transactionId));
    const row = joined?.transaction;
    if (!row || row.status !== "pending") return;
    const summary = row.summary as { request: StoredSignRequest; hasImage: boolean };
    const fields = summary.request as SignPdfFields;
    const prefix = `${row.organizationId}/stamp/${row.docId}`;
    const pdf = await services.blobs.get(`${prefix}/input.pdf`);
    const image = summary.hasImage ? ((await services.blobs.get(`${prefix}/image`)) ?? undefined) : undefined;
    if (!pdf) throw new PermanentJobFailure("El documento de entrada ya no está disponible");
    try {
      // the transaction was claimed by the request; once the document passes its checks, only the signer is needed
      const signer = () => loadAgentSigner(row.organizationId, { db: services.db, settings: pkiSettingsOf(services.config) });
      const outputName = `signed-a${job.attempts}.pdf`;
      await signStampNow({ txToken: row.txToken, docId: row.docId, organizationId: row.organizationId, organizationDomain: joined.organizationDomain, pdf, image, fields, outputName, claim: signer }, services);
    } catch (error) {
      if (isAppError(error) && PERMANENT_CODES.has(error.code)) throw new PermanentJobFailure(error.message);
      if (isAppError(error) && error.code === "CONFLICT") return; // another attempt recorded the result
      throw error;
    }
  };
  handler.onDead = async (job, death) => {
    const message =
      death.error instanceof PermanentJobFailure
        ? death.error.message
        : `${death.error ? signFailureMessage(death.error) : "Error al firmar el PDF."} (${job.attempts} intentos)`;
    await recordSignFailure({ transactionId: readJobPayload(job, ["stamp.sign"]).transactionId, message }, services.db);
  };
  return handler;
}
