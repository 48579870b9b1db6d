import { and, eq, sql } from "drizzle-orm";
import type { Services } from "@/lib/runtime/services";
import { stampTransactions } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import { measurePadesLevelOrUnmeasured } from "@/lib/verification/measure-pades-level";
import { metrics } from "@/lib/metrics/metrics";
import type { PadesLevel } from "@/lib/verification/verification-report";
import { auditRecordedLevel, isAuditSampled } from "./audit-recorded-level";
import type { AuditEvent } from "@/lib/audit/record-audit-event";
import { recordStampTransaction, type NewStampTransaction } from "./record-stamp-transaction";
import { storeSignedOutput } from "./store-signed-output";
import type { StagedUpload } from "@/lib/blob-store/blob-store";


/** What stamp signing needs: the database, the stored files, the settings and the pools. */
export type StampSigningDeps = Pick<Services, "db" | "blobs" | "config" | "pools">;

/** A signPDF transaction not written yet (a request signing now), with its audit entry. */
export type UnclaimedTransaction = { row: NewStampTransaction; audit: AuditEvent };

/**
 * signPDF's last step: stores the signed PDF, then records the transaction done with the level
 * derived in the worker: a request signing now writes its row (and takes its tx_token) in one
 * statement, a queued job completes its pending row. Only a still-pending row is completed: a stale
 * async attempt that finishes late gets CONFLICT. A refused write drops the output. A sample of outputs is verified again in
 * full after the answer (LEVEL_AUDIT_RATE), to catch a derived level that disagrees.
 */
export async function completeStampSignature(
  input: {
    job: { txToken: string; docId: string; organizationId: string; outputName?: string };
    produced: { pdf: Uint8Array; sha256: string; padesLevel: PadesLevel | null; uploadPrefixBytes?: number };
    /** The upload as staged while it arrived: only what the signature appended is written after it. */
    stagedUpload?: StagedUpload;
    /** Why an outside certificate left the output at B-T, for support and the integrator. */
    revocationUnavailable: string[];
    signerChainDer?: readonly Uint8Array[];
    transaction?: UnclaimedTransaction;
  },
  services: StampSigningDeps,
): Promise<void> {
  const { job, produced, revocationUnavailable } = input;
  const { config, db, blobs } = services;
  const outputKey = `${job.organizationId}/stamp/${job.docId}/${job.outputName ?? "signed.pdf"}`;
  await storeSignedOutput({ key: outputKey, pdf: produced.pdf, staged: input.stagedUpload, uploadPrefixBytes: produced.uploadPrefixBytes }, blobs);
  const done = { status: "done" as const, outputBlobKey: outputKey, outputSha256: produced.sha256, padesLevel: produced.padesLevel, completedAt: new Date() };
  if (input.transaction) {
    const { row, audit } = input.transaction;
    const summary = { ...row.summary, ...(revocationUnavailable.length ? { revocationUnavailable } : {}) };
    await recordStampTransaction({ row: { ...row, ...done, summary }, audit }, db).catch(async (error: unknown) => {
      await blobs.delete(outputKey);
      throw error;
    });
  } else {
    const recorded = await db
      .update(stampTransactions)
      .set({
        ...done,
        ...(revocationUnavailable.length ? { summary: sql`coalesce(${stampTransactions.summary}, '{}'::jsonb) || ${JSON.stringify({ revocationUnavailable })}::jsonb` } : {}),
      })
      .where(and(eq(stampTransactions.organizationId, job.organizationId), eq(stampTransactions.docId, job.docId), eq(stampTransactions.status, "pending")))
      .returning({ id: stampTransactions.id });
    if (recorded.length === 0) {
      await blobs.delete(outputKey);
      throw new AppError("CONFLICT", "La transacción ya fue resuelta por otro intento", "tx_token");
    }
  }
  metrics().signatures.inc({ kind: "stamp", pades_level: produced.padesLevel ?? "none" });
  if (isAuditSampled(config.LEVEL_AUDIT_RATE)) {
    // after the answer, off the request's time; the pool's own limits bound it like any verification
    const settings = { ...pkiSettingsOf(config), externalTsaUrl: config.TSA_URL, externalTsaToken: config.TSA_URL_AUTH_TOKEN, trustAnchorsDer: config.trustAnchorsDer };
    const measure = (pdf: Uint8Array) => measurePadesLevelOrUnmeasured({ pdf, ourSignatures: 1, signerChainDer: input.signerChainDer }, { db, settings, pools: services.pools });
    void auditRecordedLevel({ kind: "stamp", transaction: job.txToken, pdf: produced.pdf, recorded: produced.padesLevel }, { measure });
  }
}
