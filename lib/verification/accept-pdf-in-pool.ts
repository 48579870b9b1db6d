import type { AcceptedPdf } from "@/lib/pdf/accept-pdf";
import { cpuPool } from "@/lib/runtime/process-pools";
import type { VerificationTasks } from "./verification-tasks";

/**
 * Reads an upload strictly in the worker pool, rebuilding it there when its structure is damaged
 * (pdf-lib reads the whole file), under the pool's time and memory limits.
 */
export async function acceptPdfInPool(bytes: Uint8Array): Promise<AcceptedPdf> {
  const { inspection, repaired } = await cpuPool<VerificationTasks>().run("accept-pdf", { bytes });
  return { inspection, bytes: repaired ?? bytes, repaired: repaired !== undefined };
}
