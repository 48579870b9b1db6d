import { cpuTask } from "@/lib/runtime/cpu-task";
import type { ImportedPkcs12 } from "./import-pkcs12";

/** PKI tasks in the worker pool (implemented in lib/server/cpu-tasks.ts). */
export const pkiTasks = {
  "import-pkcs12": cpuTask<{ bytes: Uint8Array; password: string }, ImportedPkcs12>(),
};
export type PkiTasks = typeof pkiTasks;
