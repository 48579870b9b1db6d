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
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import type { PadesLevel } from "@/lib/verification/verification-report";
import type { SignPdfFields } from "./schemas";
import { planStampSignature } from "./plan-stamp-signature";
import { signStampNow } from "./sign-stamp-now";
import { acceptPdfInPool } from "@/lib/verification/accept-pdf-in-pool";
import { resolveStampSigner } from "./resolve-stamp-signer";
import { generateTxToken } from "./generate-tx-token";

export type StampSignatureResult =
  | { mode: "sync"; txToken: string; docId: string; pdf: Uint8Array; padesLevel: PadesLevel | null; revocationUnavailable: string[] }
  | { mode: "async"; txToken: string; docId: string };

/** Fields an async job needs later; credentials and the PIN are never persisted. */
export type StoredSignRequest = Omit<SignPdfFields, "sign_password" | "sign_pin" | "sign_username">;

/**
 * signPDF: validate everything up front, claim the tx_token (a unique constraint, so racing
 * requests cannot both win), then sign now or queue a durable job in the same transaction.
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
    await services.blobs.put(`${blobPrefix}/input.pdf`, plan.pdf, "application/pdf");
    if (image) await services.blobs.put(`${blobPrefix}/image`, image, "application/octet-stream");
    await claimTransaction({ ...request, repaired: plan.repaired, queuedInput: `${blobPrefix}/input.pdf` }, services.db).catch(async (error) => {
      // nothing refers to the inputs stored for the job that was not queued
      await Promise.all([services.blobs.delete(`${blobPrefix}/input.pdf`), services.blobs.delete(`${blobPrefix}/image`)]);
      throw error;
    });
    return { mode: "async", txToken, docId };
  }
  // the worker checks the upload, then asks for the claim, then signs: a refused document takes no tx_token
  const claim = async (facts: { repaired: boolean }) => {
    const signer = await resolveStampSigner({ caller, fields }, { db: services.db, settings });
    await claimTransaction({ ...request, repaired: facts.repaired }, services.db);
    return signer;
  };
  // the upload is read nowhere else after this: its buffer moves to the worker
  const job = { txToken, docId, organizationId: caller.organizationId, organizationDomain: caller.organizationDomain, pdf: input.pdf.bytes, image, fields, giveUpInput: input.moveUpload === true };
  const signed = await signStampNow({ ...job, claim }, services).catch(async (error) => {
    // the pool answers once the claim in flight settled: our claim, if made, is the pending row with our docId
    await recordSignFailure({ organizationId: caller.organizationId, docId, message: signFailureMessage(error) }, services.db);
    throw error;
  });
  return fields.async ? { mode: "async", txToken, docId } : { mode: "sync", txToken, docId, ...signed };
}

/** Takes the tx_token with the pending transaction (and, when queued, its job) in one database transaction. */
async function claimTransaction(
  request: { caller: StaffIdentity; fields: SignPdfFields; txToken: string; docId: string; hasImage: boolean; repaired: boolean; queuedInput?: string },
  db: Db,
): Promise<void> {
  const { caller, fields, txToken, docId } = request;
  const stored: StoredSignRequest = { ...fields, sign_password: undefined, sign_pin: undefined, sign_username: undefined } as StoredSignRequest;
  try {
    await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(stampTransactions)
        .values({
          organizationId: caller.organizationId,
          userId: caller.userId,
          txToken,
          docId,
          operation: "signPDF",
          status: "pending",
          signType: fields.sign_type,
          inputBlobKey: request.queuedInput ?? null,
          summary: { request: stored, hasImage: request.hasImage, signer: signerSummary(fields), ...(request.repaired ? { repaired: true } : {}) },
        })
        .returning({ id: stampTransactions.id });
      await recordAuditEvent(
        { organizationId: caller.organizationId, actor: caller.email, action: "stamp.signature_requested", target: txToken, detail: { docId, signType: fields.sign_type, async: !!fields.async, repaired: request.repaired } },
        tx,
      );
      if (request.queuedInput) await enqueue({ kind: "stamp.sign", payload: { transactionId: row.id }, organizationId: caller.organizationId, maxAttempts: 3 }, tx);
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

/** Marks a still-pending transaction failed with the reason the integrator will read. */
export async function recordSignFailure(
  input: { transactionId: string; message: string } | { organizationId: string; docId: string; message: string },
  db: Db,
): Promise<void> {
  // a docId is made per request (a tx_token may be another request's claim); none claimed, nothing changes
  const which = "transactionId" in input
    ? eq(stampTransactions.id, input.transactionId)
    : and(eq(stampTransactions.organizationId, input.organizationId), eq(stampTransactions.docId, input.docId));
  await db
    .update(stampTransactions)
    .set({ status: "failed", failureMessage: input.message, completedAt: new Date() })
    .where(and(which, eq(stampTransactions.status, "pending")));
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
