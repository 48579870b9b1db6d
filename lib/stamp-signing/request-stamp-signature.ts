import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { Services } from "@/lib/runtime/services";
import { organizations, stampTransactions } from "@/db/schema";
import { AppError, isAppError } from "@/lib/errors";
import { isUniqueViolation } from "@/db/is-unique-violation";
import type { StaffIdentity } from "@/lib/auth/authenticate-staff";
import type { UploadedFile } from "@/lib/http/parse-multipart";
import { enqueue } from "@/lib/outbox/enqueue";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import { timeStamperFor } from "@/lib/certificates/time-stamp-authority";
import { validationData } from "@/lib/certificates/finish-long-term-validation";
import { measurePadesLevel } from "@/lib/certificates/measure-pades-level";
import type { PadesLevel } from "@/lib/verification/verification-report";
import { cpuPool } from "@/lib/runtime/cpu-pool";
import type { CmsSignerInput } from "@/lib/pki/prepare-cms-signer";
import type { SignPdfFields } from "./schemas";
import { planStampSignature, type SigningPlan } from "./plan-stamp-signature";
import { acceptPdfInPool } from "@/lib/runtime/accept-pdf-in-pool";
import { resolveStampSigner } from "./resolve-stamp-signer";
import { generateTxToken } from "./generate-tx-token";
import { timed } from "@/lib/runtime/request-timing";

export type StampSignatureResult =
  | { mode: "sync"; txToken: string; docId: string; pdf: Uint8Array; padesLevel: PadesLevel | null; revocationUnavailable: string[] }
  | { mode: "async"; txToken: string; docId: string };

/** Fields an async job needs later; credentials and the PIN are never persisted. */
export type StoredSignRequest = Omit<SignPdfFields, "sign_password" | "sign_pin" | "sign_username">;

/**
 * signPDF: validate everything up front, claim the tx_token (a unique constraint, so racing
 * requests cannot both win), then sign now or queue a durable job in the same transaction.
 */
export async function requestStampSignature(
  input: { caller: StaffIdentity; fields: SignPdfFields; pdf?: UploadedFile; image?: UploadedFile },
  services: Services,
): Promise<StampSignatureResult> {
  const { fields, caller } = input;
  if (!input.pdf || input.pdf.bytes.length === 0) throw new AppError("VALIDATION", "pdf_file es obligatorio", "pdf_file");
  const image = fields.page !== undefined ? input.image?.bytes : undefined;
  const plan = await planStampSignature(fields, input.pdf.bytes, image, { accept: (bytes) => timed("inspect", () => acceptPdfInPool(bytes)) });
  // a damaged upload is signed as its rebuilt copy, and the transaction says so
  const pdf = plan.pdf;
  const settings = pkiSettingsOf(services.config);
  // digital keys are unlocked by the PIN of this request only, so they are signed now even when async
  const signer = await timed("database", () => resolveStampSigner(caller, fields, settings, services.db));
  const txToken = fields.tx_token ?? generateTxToken();
  const docId = crypto.randomUUID();
  const queued = fields.async && fields.sign_type !== "digital";
  const blobPrefix = `${caller.organizationId}/stamp/${docId}`;
  if (queued) {
    await timed("blob", async () => {
      await services.blobs.put(`${blobPrefix}/input.pdf`, pdf, "application/pdf");
      if (image) await services.blobs.put(`${blobPrefix}/image`, image, "application/octet-stream");
    });
  }
  const stored: StoredSignRequest = { ...fields, sign_password: undefined, sign_pin: undefined, sign_username: undefined } as StoredSignRequest;
  try {
    await timed("database", () => services.db.transaction(async (tx) => {
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
          inputBlobKey: queued ? `${blobPrefix}/input.pdf` : null,
          summary: { request: stored, hasImage: !!image, signer: signerSummary(fields), ...(plan.repaired ? { repaired: true } : {}) },
        })
        .returning({ id: stampTransactions.id });
      await recordAuditEvent(
        { organizationId: caller.organizationId, actor: caller.email, action: "stamp.signature_requested", target: txToken, detail: { docId, signType: fields.sign_type, async: !!fields.async, repaired: plan.repaired } },
        tx,
      );
      if (queued) await enqueue({ kind: "stamp.sign", payload: { transactionId: row.id }, organizationId: caller.organizationId, maxAttempts: 3 }, tx);
    }));
  } catch (error) {
    // nothing refers to the inputs stored for the job that was not queued
    if (queued) await Promise.all([services.blobs.delete(`${blobPrefix}/input.pdf`), services.blobs.delete(`${blobPrefix}/image`)]);
    if (isUniqueViolation(error, "stamp_transactions_tx_token_key")) throw new AppError("TX_TOKEN_REUSED", undefined, "tx_token");
    throw error;
  }
  if (queued) return { mode: "async", txToken, docId };
  const signed = await signAndRecord({ txToken, docId, organizationId: caller.organizationId, pdf, image, fields, plan, signer }, services).catch(async (error) => {
    await recordSignFailure({ txToken, message: signFailureMessage(error) }, services.db);
    throw error;
  });
  return fields.async ? { mode: "async", txToken, docId } : { mode: "sync", txToken, docId, ...signed };
}

/**
 * Signs, stores the output and marks the pending transaction done, with the PAdES level the output
 * reaches as our verifier measures it. The caller records a failure (sync: at once; async: when the
 * job is given up), so a retried job finds the row still pending. `outputName` differs per async
 * attempt: a stale attempt finishing late cannot overwrite the document another attempt already
 * recorded, and its own output is removed.
 */
export async function signAndRecord(
  input: { txToken: string; docId: string; organizationId: string; pdf: Uint8Array; image?: Uint8Array; fields: SignPdfFields; plan: SigningPlan; signer: CmsSignerInput; outputName?: string },
  services: Services,
): Promise<{ pdf: Uint8Array; padesLevel: PadesLevel | null; revocationUnavailable: string[] }> {
  const { config, db, blobs } = services;
  const tsaSettings = { ...pkiSettingsOf(config), externalTsaUrl: config.TSA_URL, externalTsaToken: config.TSA_AUTH_TOKEN };
  const timeStamper = await timed("database", () => timeStamperFor({ db, settings: tsaSettings }));
  const [organization] = await timed("database", () => db.select({ allowPrivate: organizations.allowPrivateCallbacks }).from(organizations).where(eq(organizations.id, input.organizationId)));
  const validation = await timed("dss", () =>
    validationData([input.signer.certificateDer, ...input.signer.chainDer], db, tsaSettings, {
      allowPrivate: organization?.allowPrivate ?? false,
      trustAnchorsDer: config.trustAnchorsDer,
    }),
  );
  // drawing, PDF work and the CMS run in the worker pool; the database-backed TSA stays here
  const result = await timed("pdf-update", () => cpuPool().run(
    "produce-stamped-pdf",
    {
      pdf: input.pdf,
      image: input.image,
      fields: input.fields,
      placement: input.plan.placement,
      signer: input.signer,
      validation: { certificates: validation.certificates, crls: validation.crls },
      txToken: input.txToken,
      environment: config.APP_ENV,
      verifyUrl: `${config.publicUrl}/verify/${input.txToken}`,
      signedAt: new Date(),
    },
    { timestamp: (digest: Uint8Array) => timeStamper(digest) },
  ));
  const padesLevel = await timed("level", () => measurePadesLevel({ pdf: result.pdf, ourSignatures: 1 }, { db, settings: { ...tsaSettings, trustAnchorsDer: config.trustAnchorsDer } }));
  const outputKey = `${input.organizationId}/stamp/${input.docId}/${input.outputName ?? "signed.pdf"}`;
  await timed("blob", () => blobs.put(outputKey, result.pdf, "application/pdf"));
  const recorded = await timed("database", () =>
    db
      .update(stampTransactions)
      .set({
        status: "done",
        outputBlobKey: outputKey,
        outputSha256: result.sha256,
        padesLevel,
        // why an outside certificate left the output at B-T, for support and the integrator
        ...(validation.unavailable.length ? { summary: sql`coalesce(${stampTransactions.summary}, '{}'::jsonb) || ${JSON.stringify({ revocationUnavailable: validation.unavailable })}::jsonb` } : {}),
        completedAt: new Date(),
      })
      .where(and(eq(stampTransactions.txToken, input.txToken), eq(stampTransactions.status, "pending")))
      .returning({ id: stampTransactions.id }),
  );
  if (recorded.length === 0) {
    await blobs.delete(outputKey);
    throw new AppError("CONFLICT", "La transacción ya fue resuelta por otro intento", "tx_token");
  }
  return { pdf: result.pdf, padesLevel, revocationUnavailable: validation.unavailable };
}

/** What the integrator reads in getSignedPDF: our own messages, never an internal error text. */
export function signFailureMessage(error: unknown): string {
  if (error instanceof Error && error.name === "TsaError") return "No se pudo obtener el sello de tiempo de la TSA.";
  return isAppError(error) && error.code !== "INTERNAL" ? error.message : "Error al firmar el PDF.";
}

/** Marks a still-pending transaction failed with the reason the integrator will read. */
export async function recordSignFailure(input: { txToken?: string; transactionId?: string; message: string }, db: Db): Promise<void> {
  const which = input.transactionId ? eq(stampTransactions.id, input.transactionId) : eq(stampTransactions.txToken, input.txToken ?? "");
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
