import { cpuTask } from "@/lib/runtime/cpu-task";
import type { EvidenceSummaryCalls, EvidenceSummaryInput } from "./sign-evidence-summary";

/** The evidence summary's task in the worker pool (implemented in lib/server/cpu-tasks.ts): signed by the agent key. */
export const evidenceTasks = {
  "sign-evidence-summary": cpuTask<EvidenceSummaryInput, Uint8Array, EvidenceSummaryCalls>({ keys: ["agent"] }),
};
export type EvidenceTasks = typeof evidenceTasks;
