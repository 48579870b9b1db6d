import { cpuTask } from "@/lib/runtime/cpu-task";
import type { FacialCheckWarmth } from "./warm-facial-check";
import type { FacialJudgement, judgeFacialTry } from "./judge-facial-try";
import type { ProcessSignatureCalls, ProcessSignatureInput, ProcessSignatureOutput } from "./produce-process-signature";

/** The signer flow's tasks in the worker pools (implemented in lib/server/cpu-tasks.ts). */
export const signerTasks = {
  // drawing and signing one document; the database-backed TSA answers from the main thread
  "produce-process-signature": cpuTask<ProcessSignatureInput, ProcessSignatureOutput, ProcessSignatureCalls>(),
  // on the face pool only (one worker): the models are loaded once, in that worker
  "judge-facial-try": cpuTask<Parameters<typeof judgeFacialTry>[0], FacialJudgement>(),
  // asked when a capture starts: the models are ready (and have run once) when its frames arrive
  "warm-facial-check": cpuTask<{ ocr: boolean; registryPhoto?: Uint8Array }, FacialCheckWarmth>(),
  // one frame, sent as it was captured: analysed and kept for the try's upload (analyzed-frames.ts)
  "analyze-facial-frame": cpuTask<{ frame: Uint8Array }, { face: boolean }>(),
  // the ID card photo, sent when the capture starts: read and kept for the try's upload (checked-id-cards.ts)
  "read-id-document-ahead": cpuTask<{ idDocument: Uint8Array; docId: string }, { received: true }>(),
};
export type SignerTasks = typeof signerTasks;
