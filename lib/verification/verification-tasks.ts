import { cpuTask } from "@/lib/runtime/cpu-task";
import type { PdfInspection } from "@/lib/pdf/inspect-pdf";
import type { VerificationReport } from "./verification-report";

/** The checks of uploaded PDFs that run in the worker pool (implemented in lib/server/cpu-tasks.ts). */
export const verificationTasks = {
  "verify-pdf": cpuTask<{ bytes: Uint8Array; anchorsDer: Uint8Array[] }, VerificationReport>(),
  // strict read, and the rebuild of a damaged file, off the event loop; the bytes come back only when rebuilt
  "accept-pdf": cpuTask<{ bytes: Uint8Array }, { inspection: PdfInspection; repaired: Uint8Array | undefined }>(),
};
export type VerificationTasks = typeof verificationTasks;
