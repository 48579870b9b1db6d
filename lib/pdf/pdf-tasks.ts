import { cpuTask } from "@/lib/runtime/cpu-task";
import type { PdfInspection } from "./inspect-pdf";

/** The PDF tasks run in the worker pool (implemented in lib/server/cpu-tasks.ts). */
export const pdfTasks = {
  // strict read, and the rebuild of a damaged file, off the event loop; the bytes come back only when rebuilt
  "accept-pdf": cpuTask<{ bytes: Uint8Array }, { inspection: PdfInspection; repaired: Uint8Array | undefined }>(),
};
export type PdfTasks = typeof pdfTasks;
