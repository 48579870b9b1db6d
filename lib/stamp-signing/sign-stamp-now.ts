import type { Services } from "@/lib/runtime/services";
import { eq } from "drizzle-orm";
import { organizations } from "@/db/schema";
import { completeStampSignature, type StampSigningDeps, type UnclaimedTransaction } from "./complete-stamp-signature";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import { timeStamperFor } from "@/lib/certificates/time-stamp-authority";
import { validationData } from "@/lib/certificates/finish-long-term-validation";
import { loadPlatformPki } from "@/lib/certificates/load-platform-pki";
import { isSelfIssued } from "@/lib/pki/check-pki-signatures";
import type { PadesLevel } from "@/lib/verification/verification-report";
import type { TaskRunner } from "@/lib/runtime/cpu-pool";
import type { StampSigningTasks } from "./stamp-signing-tasks";
import type { StampSigningCalls, StampSignTaskInput } from "./produce-stamped-pdf";
import type { CmsSignerInput } from "@/lib/pki/prepare-cms-signer";
import type { SignPdfFields } from "./schemas";
import type { StagedUpload } from "@/lib/blob-store/blob-store";

export type SignNowJob = {
  txToken: string;
  docId: string;
  organizationId: string;
  /** Names the organization in the QR's verification link: a tx_token is unique only within it. */
  organizationDomain: string;
  /** The upload as received: the worker reads, checks (and rebuilds if damaged) and signs it in one task. */
  pdf: Uint8Array;
  image?: Uint8Array;
  fields: SignPdfFields;
  /** Differs per async attempt: a stale attempt finishing late cannot overwrite another's output. */
  outputName?: string;
  /** The caller no longer needs `pdf` and its buffer holds nothing else (an upload): moved to the worker, not copied. */
  giveUpInput?: boolean;
  /** The upload as staged while it arrived (a request's body), stored with the output. */
  stagedUpload?: StagedUpload;
  /** A request that claimed nothing yet: its transaction, written done with the output (else a queued one is completed). */
  transaction?: () => UnclaimedTransaction;
};

const MOVE_FROM_BYTES = 64 * 1024;

/** Called once the document, page, image and position passed; returns the signer. */
export type ClaimTransaction = (facts: { repaired: boolean }) => Promise<CmsSignerInput>;

/**
 * signPDF's main-thread side: plans and produces in one worker task (produce-stamped-pdf.ts: one
 * parse of the upload, one read of the image), answering its steps (the claim, the DSS data, the
 * time-stamp), then completes (complete-stamp-signature.ts). Each step is a typed message whose
 * answer is a value: what one step needs of another (the signer's chain) comes back in the next
 * message, and what completion needs comes back in the task's output. The caller's `claim` runs
 * between the checks and the signature (it resolves the signer); the pool reports a failure only once the steps in flight
 * settled, with a step's own error when one failed, so the caller may then record the failure.
 */
export async function signStampNow(
  request: SignNowJob & { claim: ClaimTransaction },
  services: StampSigningDeps,
): Promise<{ pdf: Uint8Array; padesLevel: PadesLevel | null; revocationUnavailable: string[] }> {
  const { claim, ...job } = request;
  const { config, db, pools } = services;
  const tsaSettings = { ...pkiSettingsOf(config), externalTsaUrl: config.TSA_URL, externalTsaToken: config.TSA_URL_AUTH_TOKEN };
  // loaded while the worker checks the upload; awaited only by the steps that sign
  const timeStamper = timeStamperFor({ db, settings: tsaSettings });
  timeStamper.catch(() => undefined);
  // the task holds its worker while these run: they must never wait on the main pool themselves
  const calls: StampSigningCalls = {
    claim: (facts) => claim(facts),
    validation: async (signer) => {
      const validation = await validationData(
        { signerCertificates: [signer.certificateDer, ...signer.chainDer], outside: { allowPrivate: () => privateAddressesAllowed(job.organizationId, db), trustAnchorsDer: config.trustAnchorsDer } },
        { db, settings: tsaSettings, pools },
      );
      // the anchors the full verifier starts from (measure-pades-level.ts), so the derived level is judged alike
      const pki = await loadPlatformPki({ db, settings: tsaSettings });
      const anchorsDer = [pki.root.certificateDer, ...config.trustAnchorsDer, ...signer.chainDer.filter(isSelfIssued)];
      return { certificates: validation.certificates, crls: validation.crls, anchorsDer, revocationUnavailable: validation.unavailable };
    },
    timestamp: async (digest) => (await timeStamper)(digest),
  };
  const input: StampSignTaskInput = { pdf: job.pdf, image: job.image, fields: job.fields, txToken: job.txToken, environment: config.APP_ENV, verifyUrl: verificationUrl(config.publicUrl, job) };
  // a large upload's buffer is its own (never Node's shared pool): moving it spares a copy on the event loop
  const movable = job.giveUpInput && job.pdf.byteOffset === 0 && job.pdf.buffer instanceof ArrayBuffer && job.pdf.byteLength >= MOVE_FROM_BYTES;
  const transfer = movable ? [job.pdf.buffer as ArrayBuffer] : [];
  // a moved upload's buffer holds only the upload, and room after it (collect-upload.ts) the worker may write into
  if (movable) input.pdfTailIsFree = true;
  const pool: TaskRunner<StampSigningTasks> = pools.cpu;
  const result = await pool.run("plan-and-produce-stamped-pdf", input, calls, transfer);
  await completeStampSignature({ job, produced: result, stagedUpload: job.stagedUpload, revocationUnavailable: result.revocationUnavailable, signerChainDer: result.signerChainDer, transaction: job.transaction?.() }, services);
  return { pdf: result.pdf, padesLevel: result.padesLevel, revocationUnavailable: result.revocationUnavailable };
}

/** The public page of one transaction, as printed in the stamp's QR code. */
export function verificationUrl(publicUrl: string, transaction: { txToken: string; organizationDomain: string }): string {
  return `${publicUrl}/verify/${transaction.txToken}?org=${encodeURIComponent(transaction.organizationDomain)}`;
}

/** Whether the organization lets outbound requests (callbacks, and CRLs of outside certificates) reach private addresses. */
async function privateAddressesAllowed(organizationId: string, db: Services["db"]): Promise<boolean> {
  const [organization] = await db.select({ allowPrivate: organizations.allowPrivateCallbacks }).from(organizations).where(eq(organizations.id, organizationId));
  return organization?.allowPrivate ?? false;
}
