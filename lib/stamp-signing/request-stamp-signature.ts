import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { StampSigningDeps } from "./complete-stamp-signature";
import { stampTransactions } from "@/db/schema";
import { AppError, isAppError } from "@/lib/errors";
import { isUniqueViolation } from "@/db/is-unique-violation";
import type { StaffIdentity } from "@/lib/auth/authenticate-staff";
import type { UploadedFile } from "@/lib/request-reading/parse-multipart";
import { enqueue } from "@/lib/outbox/enqueue";
import { recordAuditEvent, type AuditEvent } from "@/lib/audit/record-audit-event";
import { recordStampTransaction, type NewStampTransaction } from "./record-stamp-transaction";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import type { PadesLevel } from "@/lib/verification/verification-report";
import type { SignPdfFields } from "./schemas";
import { planStampSignature } from "./plan-stamp-signature";
import { signStampNow } from "./sign-stamp-now";
import { acceptPdfInPool } from "@/lib/verification/accept-pdf-in-pool";
import { resolveStampSigner } from "./resolve-stamp-signer";
import { generateTxToken } from "./generate-tx-token";
import { storeSignedOutput } from "./store-signed-output";

export type StampSignatureResult =
  | { mode: "sync"; txToken: string; docId: string; pdf: Uint8Array; padesLevel: PadesLevel | null; revocationUnavailable: string[] }
  | { mode: "async"; txToken: string; docId: string };

/** Fields an async job needs later; credentials and the PIN are never persisted. */
export type StoredSignRequest = Omit<SignPdfFields, "sign_password" | "sign_pin" | "sign_username">;

/**
 * signPDF: validate everything up front, then sign now and take the tx_token with the output, or
 * take it with a durable job (queued). A unique constraint holds the tx_token, so racing requests
 * cannot both win.
 */
export type RequestStampSignatureInput = {
  caller: StaffIdentity;
  fields: SignPdfFields;
  pdf?: UploadedFile;
  image?: UploadedFile;
  /** The caller never reads `pdf.bytes` again (a request body): its buffer may move to a worker instead of being copied. */
  moveUpload?: boolean;
};

export async function requestStampSignature(
  input: RequestStampSignatureInput,
  services: StampSigningDeps,
): Promise<StampSignatureResult> {
  const { fields, caller } = input;
  if (!input.pdf || input.pdf.bytes.length === 0) throw new AppError("VALIDATION", "pdf_file es obligatorio", "pdf_file");
  const image = fields.page !== undefined ? input.image?.bytes : undefined;
  const settings = pkiSettingsOf(services.config);
  const txToken = fields.tx_token ?? generateTxToken();
  const docId = crypto.randomUUID();
  const request = { caller, fields, txToken, docId, hasImage: !!image };
  // digital keys are unlocked by the PIN of this request only, so they are signed now even when async
  if (fields.async && fields.sign_type !== "digital") {
    const plan = await planStampSignature({ fields, upload: input.pdf.bytes, image }, { accept: (bytes) => acceptPdfInPool(bytes, services.pools.cpu) });
    await resolveStampSigner({ caller, fields }, { db: services.db, settings });
    // a damaged upload is signed as its rebuilt copy, and the transaction says so
    const blobPrefix = `${caller.organizationId}/stamp/${docId}`;
    // an upload kept as sent is its staged copy, with nothing after it
    const uploadPrefixBytes = plan.repaired ? undefined : plan.pdf.length;
    await storeSignedOutput({ key: `${blobPrefix}/input.pdf`, pdf: plan.pdf, staged: input.pdf.staged, uploadPrefixBytes }, services.blobs);
    if (image) await services.blobs.put(`${blobPrefix}/image`, image, "application/octet-stream");
    await claimTransaction({ ...request, repaired: plan.repaired, queuedInput: `${blobPrefix}/input.pdf` }, services.db).catch(async (error) => {
      // nothing refers to the inputs stored for the job that was not queued
      await Promise.all([services.blobs.delete(`${blobPrefix}/input.pdf`), services.blobs.delete(`${blobPrefix}/image`)]);
      throw error;
    });
    return { mode: "async", txToken, docId };
  }
  // the worker checks the upload, then asks for the signer, then signs: a refused document takes no tx_token
  let checked: { repaired: boolean } | undefined;
  const claim = async (facts: { repaired: boolean }) => {
    const signer = await resolveStampSigner({ caller, fields }, { db: services.db, settings });
    checked = facts;
    return signer;
  };
  // the tx_token is taken with the output, in one statement after signing (record-stamp-transaction.ts)
  const transaction = () => stampTransactionRecord({ ...request, repaired: checked?.repaired === true });
  // the upload is read nowhere else after this: its buffer moves to the worker
  const job = { txToken, docId, organizationId: caller.organizationId, organizationDomain: caller.organizationDomain, pdf: input.pdf.bytes, image, fields, giveUpInput: input.moveUpload === true, stagedUpload: input.pdf.staged };
  const signed = await signStampNow({ ...job, claim, transaction }, services).catch(async (error) => {
    // a document that passed its checks and then failed is recorded failed, unless its tx_token is another's
    if (checked && !(isAppError(error) && error.code === "TX_TOKEN_REUSED")) {
      const { row, audit } = transaction();
      await recordStampTransaction({ row: { ...row, status: "failed", failureMessage: signFailureMessage(error), completedAt: new Date() }, audit }, services.db).catch((recordError: unknown) => {
        if (!(isAppError(recordError) && recordError.code === "TX_TOKEN_REUSED")) throw recordError;
      });
    }
    throw error;
  });
  return fields.async ? { mode: "async", txToken, docId } : { mode: "sync", txToken, docId, ...signed };
}

type ClaimRequest = { caller: StaffIdentity; fields: SignPdfFields; txToken: string; docId: string; hasImage: boolean; repaired: boolean; queuedInput?: string };

/** The pending transaction row of a request and the audit entry that records it. */
function stampTransactionRecord(request: ClaimRequest): { row: NewStampTransaction & { status: "pending" }; audit: AuditEvent } {
  const { caller, fields, txToken, docId } = request;
  const stored: StoredSignRequest = { ...fields, sign_password: undefined, sign_pin: undefined, sign_username: undefined } as StoredSignRequest;
  return {
    row: {
      organizationId: caller.organizationId,
      userId: caller.userId,
      txToken,
      docId,
      operation: "signPDF",
      status: "pending",
      signType: fields.sign_type,
      inputBlobKey: request.queuedInput ?? null,
      summary: { request: stored, hasImage: request.hasImage, signer: signerSummary(fields), ...(request.repaired ? { repaired: true } : {}) },
    },
    audit: { organizationId: caller.organizationId, actor: caller.email, action: "stamp.signature_requested", target: txToken, detail: { docId, signType: fields.sign_type, async: !!fields.async, repaired: request.repaired } },
  };
}

/** Takes the tx_token with the pending transaction and its queued job in one database transaction. */
async function claimTransaction(request: ClaimRequest, db: Db): Promise<void> {
  const { row, audit } = stampTransactionRecord(request);
  try {
    await db.transaction(async (tx) => {
      const [inserted] = await tx.insert(stampTransactions).values(row).returning({ id: stampTransactions.id });
      await recordAuditEvent(audit, tx);
      if (request.queuedInput) await enqueue({ kind: "stamp.sign", payload: { transactionId: inserted.id }, organizationId: request.caller.organizationId, maxAttempts: 3 }, tx);
    });
  } catch (error) {
    if (isUniqueViolation(error, "stamp_transactions_org_tx_token_key")) throw new AppError("TX_TOKEN_REUSED", undefined, "tx_token");
    throw error;
  }
}

/** What the integrator reads in getSignedPDF: our own messages, never an internal error text. */
export function signFailureMessage(error: unknown): string {
  if (error instanceof Error && error.name === "TsaError") return "No se pudo obtener el sello de tiempo de la TSA.";
  return isAppError(error) && error.code !== "INTERNAL" ? error.message : "Error al firmar el PDF.";
}

/** Marks a still-pending (queued) transaction failed with the reason the integrator will read. */
export async function recordSignFailure(input: { transactionId: string; message: string }, db: Db): Promise<void> {
  await db
    .update(stampTransactions)
    .set({ status: "failed", failureMessage: input.message, completedAt: new Date() })
    .where(and(eq(stampTransactions.id, input.transactionId), eq(stampTransactions.status, "pending")));
}

function signerSummary(fields: SignPdfFields) {
  return {
    names: fields.names,
    lastNames: fields.last_names,
    personIdType: fields.person_id_type,
    personId: fields.person_id,
    nationality: fields.nationality,
    email: fields.sign_type === "otp" ? fields.email : undefined,
  };
}
