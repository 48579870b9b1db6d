import { cpuTask } from "@/lib/runtime/cpu-task";
import type { StampSigningCalls, StampSignTaskInput } from "./produce-stamped-pdf";
import type { PadesLevel } from "@/lib/verification/verification-report";

/** signPDF's task in the worker pool (implemented in lib/server/cpu-tasks.ts). */
export const stampSigningTasks = {
  // read, check, draw, update and CMS in one task; the claim, DSS data and time-stamp come from the main thread
  "plan-and-produce-stamped-pdf": cpuTask<StampSignTaskInput, { pdf: Uint8Array; sha256: string; padesLevel: PadesLevel | null }, StampSigningCalls>(),
};
export type StampSigningTasks = typeof stampSigningTasks;
