import { cpuTask } from "@/lib/runtime/cpu-task";
import type { VerificationReport } from "./verification-report";

/** The verifier's task in the worker pool (implemented in lib/server/cpu-tasks.ts). */
export const verificationTasks = {
  "verify-pdf": cpuTask<{ bytes: Uint8Array; anchorsDer: Uint8Array[] }, VerificationReport>(),
};
export type VerificationTasks = typeof verificationTasks;
