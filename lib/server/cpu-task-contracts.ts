import { diagnosticTasks } from "@/lib/runtime/diagnostic-tasks";
import { stampSigningTasks } from "@/lib/stamp-signing/stamp-signing-tasks";
import { signerTasks } from "@/lib/signers/signer-tasks";
import { verificationTasks } from "@/lib/verification/verification-tasks";
import { evidenceTasks } from "@/lib/evidence/evidence-tasks";
import { certificateTasks } from "@/lib/certificates/certificate-tasks";

/**
 * Every task contract the domains declare: what the pools may be asked to run. The main thread
 * needs these alone; the implementations (./cpu-tasks.ts) load in the workers.
 */
export const cpuTaskContracts = {
  ...diagnosticTasks,
  ...stampSigningTasks,
  ...signerTasks,
  ...verificationTasks,
  ...evidenceTasks,
  ...certificateTasks,
};
export type CpuTasks = typeof cpuTaskContracts;
