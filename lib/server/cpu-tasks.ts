import type { CpuTaskImplementations } from "@/lib/runtime/cpu-task";
import type { TaskModuleLoaders } from "@/lib/runtime/serve-cpu-tasks";
import { timed } from "@/lib/runtime/request-timing";
import { diagnosticTaskImplementations } from "@/lib/runtime/diagnostic-tasks";
import type { CpuTasks } from "./cpu-task-contracts";

/*
 * The CPU-heavy work that runs in the worker pools: pure functions of their (structured-cloneable)
 * input, one per contract (./cpu-task-contracts.ts); the compiler checks each against its contract,
 * and the worker's calls home (`context.call`) against the calls the contract names. Each call home
 * the task waits on is timed here, at the boundary, under the stage its main-thread work belongs to
 * (Server-Timing, docs/architecture.md).
 *
 * Every pool starts its workers on this one table, but a worker loads a task's code on the task's
 * first run: a signing worker never holds the face check's modules, nor the face worker the
 * signing code ("Worker modules" in docs/architecture.md).
 */
const load = {
  "accept-pdf": () => Promise.all([import("@/lib/pdf/accept-pdf"), import("@/lib/pdf/repair-pdf")]),
  "import-pkcs12": () => import("@/lib/pki/import-pkcs12"),
  "plan-and-produce-stamped-pdf": () => import("@/lib/stamp-signing/produce-stamped-pdf"),
  "produce-process-signature": () => import("@/lib/signers/produce-process-signature"),
  "judge-facial-try": () => import("@/lib/signers/judge-facial-try"),
  "warm-facial-check": () => import("@/lib/signers/warm-facial-check"),
  "analyze-facial-frame": () => import("@/lib/signers/analyzed-frames"),
  "read-id-document-ahead": () => import("@/lib/signers/checked-id-cards"),
  "verify-pdf": () => import("@/lib/verification/verify-pdf-signatures"),
  "sign-evidence-summary": () => import("@/lib/evidence/sign-evidence-summary"),
  "check-outside-crl": () => import("@/lib/certificates/check-outside-crl"),
} satisfies TaskModuleLoaders<CpuTasks>;

/** What loads each task's code in a worker (lib/runtime/serve-cpu-tasks.ts runs it before the task's time starts). */
export const cpuTaskModules: TaskModuleLoaders<CpuTasks> = load;

export const cpuTasks: CpuTaskImplementations<CpuTasks> = {
  ...diagnosticTaskImplementations,
  "accept-pdf": async (input) => {
    const [{ acceptPdf }, { repairPdf }] = await load["accept-pdf"]();
    const accepted = await timed("inspect", () => acceptPdf(input.bytes, { repair: repairPdf }));
    return { inspection: accepted.inspection, repaired: accepted.repaired ? accepted.bytes : undefined };
  },
  "import-pkcs12": async (input) => (await load["import-pkcs12"]()).importPkcs12(input.bytes, input.password),
  "plan-and-produce-stamped-pdf": async (input, context) =>
    (await load["plan-and-produce-stamped-pdf"]()).planAndProduceStampedPdf(input, {
      claim: (facts) => timed("database", () => context.call("claim", facts)),
      // not timed here: the worker asks for it before drawing and signing and reads the answer only
      // when it writes the DSS, where its wait (if any) is charged to "dss" (produce-stamped-pdf.ts);
      // timing the call charged the drawing it overlaps a second time (stamp + QR "dss" 6.3 ms for 0.65 ms of work)
      validation: (signer) => context.call("validation", signer),
      timestamp: (digest) => timed("tsa", () => context.call("timestamp", digest)),
    }),
  "produce-process-signature": async (input, context) =>
    (await load["produce-process-signature"]()).produceProcessSignature(input, {
      timestamp: (digest) => timed("tsa", () => context.call("timestamp", digest)),
      documentTimestamp: (digest) => timed("tsa", () => context.call("documentTimestamp", digest)),
    }),
  "judge-facial-try": async (input) => (await load["judge-facial-try"]()).judgeFacialTry(input),
  "warm-facial-check": async (input) => (await load["warm-facial-check"]()).warmFacialCheck(input),
  "analyze-facial-frame": async (input) => (await load["analyze-facial-frame"]()).analyzeFacialFrame(input),
  "read-id-document-ahead": async (input) => (await load["read-id-document-ahead"]()).readIdDocumentAhead(input),
  "verify-pdf": async (input) => (await load["verify-pdf"]()).verifyPdfSignatures(input.bytes, input.anchorsDer),
  "sign-evidence-summary": async (input, context) =>
    (await load["sign-evidence-summary"]()).signEvidenceSummary(input, { timestamp: (digest) => context.call("timestamp", digest) }),
  "check-outside-crl": async (input) => (await load["check-outside-crl"]()).checkOutsideCrl(input),
};
