import { cpuTask } from "@/lib/runtime/cpu-task";
import type { StampSigningCalls, StampSignTaskInput, StampSignTaskOutput } from "./produce-stamped-pdf";

/** signPDF's task in the worker pool (implemented in lib/server/cpu-tasks.ts). */
export const stampSigningTasks = {
  // read, check, draw, update and CMS in one task; the claim, DSS data and time-stamp come from the main
  // thread; a token key it may have signed there: the organization's agent key and the TSA's, never a CA's
  "plan-and-produce-stamped-pdf": cpuTask<StampSignTaskInput, StampSignTaskOutput, StampSigningCalls>({ keys: ["agent", "tsa"] }),
};
export type StampSigningTasks = typeof stampSigningTasks;
