import { cpuTask } from "@/lib/runtime/cpu-task";
import type { ImportedPkcs12 } from "@/lib/pki/import-pkcs12";
import type { checkOutsideCrl, OutsideCrlCheck } from "./check-outside-crl";

/** Certificate tasks in the worker pools (implemented in lib/server/cpu-tasks.ts). */
export const certificateTasks = {
  "import-pkcs12": cpuTask<{ bytes: Uint8Array; password: string }, ImportedPkcs12>(),
  // on the revocation pool only: asked for from main-thread calls that signing tasks wait on
  "check-outside-crl": cpuTask<Parameters<typeof checkOutsideCrl>[0], OutsideCrlCheck>(),
};
export type CertificateTasks = typeof certificateTasks;
