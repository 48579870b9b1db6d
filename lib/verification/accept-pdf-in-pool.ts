import type { AcceptedPdf } from "@/lib/pdf/accept-pdf";
import type { TaskRunner } from "@/lib/runtime/cpu-pool";
import type { VerificationTasks } from "./verification-tasks";

/**
 * Reads an upload strictly in the worker pool, rebuilding it there when its structure is damaged
 * (pdf-lib reads the whole file), under the pool's time and memory limits.
 */
export async function acceptPdfInPool(bytes: Uint8Array, pool: TaskRunner<VerificationTasks>): Promise<AcceptedPdf> {
  const { inspection, repaired } = await pool.run("accept-pdf", { bytes });
  return { inspection, bytes: repaired ?? bytes, repaired: repaired !== undefined };
}
