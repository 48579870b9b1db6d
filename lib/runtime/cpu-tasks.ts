import { repairPdf } from "@/lib/pdf/repair-pdf";
import { importPkcs12 } from "@/lib/pki/import-pkcs12";
import { verifyPdfSignatures } from "@/lib/verification/verify-pdf-signatures";

/**
 * The CPU-heavy work that runs in the worker pool: pure functions of their (structured-cloneable)
 * input. Adding a task here is all it takes to move work off the event loop.
 */
export const cpuTasks = {
  "verify-pdf": (input: { bytes: Uint8Array; anchorsDer: Uint8Array[] }) => verifyPdfSignatures(input.bytes, input.anchorsDer),
  "repair-pdf": (input: { bytes: Uint8Array }) => repairPdf(input.bytes),
  "import-pkcs12": (input: { bytes: Uint8Array; password: string }) => importPkcs12(input.bytes, input.password),
  // never reached from a route: the pool's tests and the bench prove its time and memory limits with them
  "diagnose-spin": (input: { ms: number }) => {
    const until = Date.now() + input.ms;
    while (Date.now() < until);
    return "done";
  },
  "diagnose-allocate": (input: { megabytes: number }) => {
    const chunks: number[][] = [];
    for (let i = 0; i < input.megabytes; i++) chunks.push(new Array(128 * 1024).fill(i));
    return chunks.length;
  },
};

export type CpuTaskName = keyof typeof cpuTasks;
export type CpuTaskInput<N extends CpuTaskName> = Parameters<(typeof cpuTasks)[N]>[0];
export type CpuTaskOutput<N extends CpuTaskName> = Awaited<ReturnType<(typeof cpuTasks)[N]>>;
