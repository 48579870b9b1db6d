import { cpuPool } from "@/lib/runtime/cpu-pool";

/** Rebuilding a damaged PDF (pdf-lib reads the whole file) runs in the worker pool, under its limits. */
export function repairInPool(bytes: Uint8Array): Promise<Uint8Array> {
  return cpuPool().run("repair-pdf", { bytes });
}
