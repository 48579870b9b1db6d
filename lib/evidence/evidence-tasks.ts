import { cpuTask } from "@/lib/runtime/cpu-task";
import type { EvidenceSummaryCalls, EvidenceSummaryInput } from "./sign-evidence-summary";

/** The evidence summary's task in the worker pool (implemented in lib/server/cpu-tasks.ts). */
export const evidenceTasks = {
  "sign-evidence-summary": cpuTask<EvidenceSummaryInput, Uint8Array, EvidenceSummaryCalls>(),
};
export type EvidenceTasks = typeof evidenceTasks;
