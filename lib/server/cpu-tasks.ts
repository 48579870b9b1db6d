import type { CpuTaskImplementations } from "@/lib/runtime/cpu-task";
import { timed } from "@/lib/runtime/request-timing";
import { diagnosticTaskImplementations, diagnosticTasks } from "@/lib/runtime/diagnostic-tasks";
import { acceptPdf } from "@/lib/pdf/accept-pdf";
import { repairPdf } from "@/lib/pdf/repair-pdf";
import { importPkcs12 } from "@/lib/pki/import-pkcs12";
import { planAndProduceStampedPdf } from "@/lib/stamp-signing/produce-stamped-pdf";
import { stampSigningTasks } from "@/lib/stamp-signing/stamp-signing-tasks";
import { judgeFacialTry } from "@/lib/signers/judge-facial-try";
import { warmFacialCheck } from "@/lib/signers/warm-facial-check";
import { analyzeFacialFrame } from "@/lib/signers/analyzed-frames";
import { readIdDocumentAhead } from "@/lib/signers/checked-id-cards";
import { produceProcessSignature } from "@/lib/signers/produce-process-signature";
import { signerTasks } from "@/lib/signers/signer-tasks";
import { verifyPdfSignatures } from "@/lib/verification/verify-pdf-signatures";
import { verificationTasks } from "@/lib/verification/verification-tasks";
import { signEvidenceSummary } from "@/lib/evidence/sign-evidence-summary";
import { evidenceTasks } from "@/lib/evidence/evidence-tasks";
import { checkOutsideCrl } from "@/lib/certificates/check-outside-crl";
import { certificateTasks } from "@/lib/certificates/certificate-tasks";

/** Every task contract the domains declare: what the pools may be asked to run. */
export const cpuTaskContracts = {
  ...diagnosticTasks,
  ...stampSigningTasks,
  ...signerTasks,
  ...verificationTasks,
  ...evidenceTasks,
  ...certificateTasks,
};
export type CpuTasks = typeof cpuTaskContracts;

/**
 * The CPU-heavy work that runs in the worker pools: pure functions of their (structured-cloneable)
 * input, one per contract; the compiler checks each against its contract, and the worker's calls
 * home (`context.call`) against the calls the contract names. Each call home is timed here, at the
 * boundary, under the stage its main-thread work belongs to (Server-Timing, docs/architecture.md).
 */
export const cpuTasks: CpuTaskImplementations<CpuTasks> = {
  ...diagnosticTaskImplementations,
  "accept-pdf": async (input) => {
    const accepted = await timed("inspect", () => acceptPdf(input.bytes, { repair: repairPdf }));
    return { inspection: accepted.inspection, repaired: accepted.repaired ? accepted.bytes : undefined };
  },
  "import-pkcs12": (input) => importPkcs12(input.bytes, input.password),
  "plan-and-produce-stamped-pdf": (input, context) =>
    planAndProduceStampedPdf(input, {
      claim: (facts) => timed("database", () => context.call("claim", facts)),
      validation: (signer) => timed("dss", () => context.call("validation", signer)),
      timestamp: (digest) => timed("tsa", () => context.call("timestamp", digest)),
    }),
  "produce-process-signature": (input, context) =>
    produceProcessSignature(input, {
      timestamp: (digest) => timed("tsa", () => context.call("timestamp", digest)),
      documentTimestamp: (digest) => timed("tsa", () => context.call("documentTimestamp", digest)),
    }),
  "judge-facial-try": (input) => judgeFacialTry(input),
  "warm-facial-check": (input) => warmFacialCheck(input),
  "analyze-facial-frame": (input) => analyzeFacialFrame(input),
  "read-id-document-ahead": (input) => readIdDocumentAhead(input),
  "verify-pdf": (input) => verifyPdfSignatures(input.bytes, input.anchorsDer),
  "sign-evidence-summary": (input, context) => signEvidenceSummary(input, { timestamp: (digest) => context.call("timestamp", digest) }),
  "check-outside-crl": (input) => checkOutsideCrl(input),
};
