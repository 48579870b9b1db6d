import type { KeySigningHandler, MainThreadCalls } from "./cpu-task";
import { serializeError, type SerializedError } from "./task-errors";
import type { StageTimings } from "./request-timing";
import type { CpuLane } from "./cpu-pool-options";

// A pool's task as the pool holds it, and the main-thread calls the task makes while it runs
// (lib/runtime/cpu-pool.ts schedules; this answers a running task's calls and reports its failure).

export type TaskTiming = { stages: StageTimings; totalMs: number };

export type PoolJob = {
  id: number;
  task: string;
  input: unknown;
  calls: MainThreadCalls;
  timing: boolean;
  transfer: ArrayBuffer[];
  lane: CpuLane;
  /** Main-thread calls of the task still running: a failure is reported once they settled (no side effect lands after it). */
  callsInFlight: Set<Promise<void>>;
  /** The first main-thread call that failed: a task failing after it gets that error itself, not its copy through the worker. */
  callError?: { error: unknown };
  resolve: (value: { output: unknown; timing?: TaskTiming }) => void;
  reject: (error: Error) => void;
};

export type TaskCallMessage = { kind: "call"; id: number; callId: number; name: string; args: unknown[] };
export type TaskCallReply = { ok: boolean; output?: unknown; error?: SerializedError };

/** The one call home every task may make, answered by `signWithKey` for the purposes the task declared. */
const KEY_SIGNING_CALL = "sign-with-token-key";

/**
 * Runs a main-thread call of a running task and hands its answer to `reply` (which sends it only if
 * the task still runs). A key signature goes to `signWithKey` with the purposes the task's contract
 * declared (`purposes`), never more.
 */
export function answerTaskCall(
  job: PoolJob,
  message: TaskCallMessage,
  { purposes, signWithKey, reply }: { purposes: readonly string[]; signWithKey?: KeySigningHandler; reply: (body: TaskCallReply) => void },
): void {
  const handler: ((...args: never[]) => Promise<unknown>) | undefined = Object.hasOwn(job.calls, message.name)
    ? job.calls[message.name]
    : message.name === KEY_SIGNING_CALL && signWithKey
      ? (label: string, data: Uint8Array) => signWithKey({ task: job.task, purposes, label, data })
      : undefined;
  if (!handler) return reply({ ok: false, error: serializeError(new Error(`no main-thread call ${message.name}`)) });
  // the arguments are the ones the worker's typed `context.call` was given for this name
  const running = Promise.resolve()
    .then(() => handler(...(message.args as never[])))
    .then(
      (output) => reply({ ok: true, output }),
      (error: unknown) => {
        job.callError ??= { error };
        reply({ ok: false, error: serializeError(error) });
      },
    )
    .finally(() => job.callsInFlight.delete(running));
  job.callsInFlight.add(running);
}

/** Rejects a task once its main-thread calls settled, with the error of the first that failed if one did. */
export function rejectAfterCalls(job: PoolJob, error: Error): void {
  void Promise.allSettled([...job.callsInFlight]).then(() => job.reject((job.callError?.error as Error | undefined) ?? error));
}
