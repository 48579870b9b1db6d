import { acceptPdf } from "@/lib/pdf/accept-pdf";
import { repairPdf } from "@/lib/pdf/repair-pdf";
import type { CmsSignerInput } from "@/lib/pki/prepare-cms-signer";
import { planAndProduceStampedPdf, type StampSignTaskInput, type StampValidationData } from "@/lib/stamp-signing/plan-and-produce-stamped-pdf";
import { importPkcs12 } from "@/lib/pki/import-pkcs12";
import { judgeFacialTry } from "@/lib/signers/judge-facial-try";
import { produceProcessSignature, type ProcessSignatureInput } from "@/lib/signers/produce-process-signature";
import { verifyPdfSignatures } from "@/lib/verification/verify-pdf-signatures";
import { signEvidenceSummary, type EvidenceSummaryInput } from "@/lib/evidence/sign-evidence-summary";
import { checkOutsideCrl } from "@/lib/certificates/check-outside-crl";

/** Lets a task ask the main thread for what only it has; the names are the run's `calls`. */
export type TaskContext = { call: (name: string, ...args: unknown[]) => Promise<unknown> };

/**
 * The CPU-heavy work that runs in the worker pool: pure functions of their (structured-cloneable)
 * input. Adding a task here is all it takes to move work off the event loop.
 */
export const cpuTasks = {
  "verify-pdf": (input: { bytes: Uint8Array; anchorsDer: Uint8Array[] }) => verifyPdfSignatures(input.bytes, input.anchorsDer),
  // strict read, and the rebuild of a damaged file, off the event loop; the bytes come back only when rebuilt
  "accept-pdf": async (input: { bytes: Uint8Array }) => {
    const accepted = await acceptPdf(input.bytes, { repair: repairPdf });
    return { inspection: accepted.inspection, repaired: accepted.repaired ? accepted.bytes : undefined };
  },
  // read, check, draw, update and CMS in one task; the claim, DSS data and time-stamp come from the main thread
  "plan-and-produce-stamped-pdf": (input: StampSignTaskInput, context: TaskContext) =>
    planAndProduceStampedPdf(input, {
      claim: (facts) => context.call("claim", facts) as Promise<CmsSignerInput>,
      validation: () => context.call("validation") as Promise<StampValidationData>,
      timestamp: (digest) => context.call("timestamp", digest) as Promise<Uint8Array>,
    }),
  "produce-process-signature": (input: ProcessSignatureInput, context: TaskContext) =>
    produceProcessSignature(input, {
      timestamp: (digest) => context.call("timestamp", digest) as Promise<Uint8Array>,
      documentTimestamp: (digest) => context.call("documentTimestamp", digest) as Promise<Uint8Array>,
    }),
  "sign-evidence-summary": (input: EvidenceSummaryInput, context: TaskContext) =>
    signEvidenceSummary(input, { timestamp: (digest) => context.call("timestamp", digest) as Promise<Uint8Array> }),
  // on the face pool only (one worker): the models are loaded once, in that worker
  "judge-facial-try": (input: Parameters<typeof judgeFacialTry>[0]) => judgeFacialTry(input),
  "import-pkcs12": (input: { bytes: Uint8Array; password: string }) => importPkcs12(input.bytes, input.password),
  // readiness (/api/health/ready): a worker answers
  ping: () => "pong",
  // on the revocation pool only: asked for from main-thread calls that signing tasks wait on
  "check-outside-crl": (input: Parameters<typeof checkOutsideCrl>[0]) => checkOutsideCrl(input),
  // never reached from a route: the pool's tests and the bench prove its time and memory limits with them
  "diagnose-spin": (input: { ms: number }) => {
    const until = Date.now() + input.ms;
    while (Date.now() < until);
    return "done";
  },
  "diagnose-allocate": (input: { megabytes: number }) => {
    const chunks: number[][] = [];
    for (let i = 0; i < input.megabytes; i++) chunks.push(new Array(128 * 1024).fill(i));
    return chunks.length;
  },
};

export type CpuTaskName = keyof typeof cpuTasks;
export type CpuTaskInput<N extends CpuTaskName> = Parameters<(typeof cpuTasks)[N]>[0];
export type CpuTaskOutput<N extends CpuTaskName> = Awaited<ReturnType<(typeof cpuTasks)[N]>>;
