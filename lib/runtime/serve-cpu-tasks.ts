import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { ownMemory } from "./worker-memory";
import type { BuiltInCalls, CpuTaskImplementations, CpuTaskTable, MainThreadCalls, TaskContext } from "./cpu-task";
import { recordStages } from "./request-timing";
import { deserializeError, serializeError, type SerializedError } from "./task-errors";
import { ownedBuffers, topLevelBuffers } from "./task-output-transfer";

type Incoming =
  | { kind: "task"; id: number; task: string; input: unknown; timing?: boolean }
  | { kind: "memory"; id: number }
  | { kind: "preload"; tasks: string[] }
  | { kind: "reply"; callId: number; ok: boolean; output?: unknown; error?: SerializedError };

/** An implementation as the message loop sees it: the input and calls come from across the thread boundary. */
type UntypedTask = (input: never, context: TaskContext<MainThreadCalls>) => unknown;

/** Per task, what loads its code (its modules' imports); a task without one has its code loaded with the worker. */
export type TaskModuleLoaders<T extends CpuTaskTable> = Partial<Record<keyof T & string, () => Promise<unknown>>>;

/**
 * The worker side of the pools (lib/runtime/cpu-pool.ts): runs the tasks of `tasks` that the pool
 * sends, one at a time, and carries their calls home. A task's code (`loaders`) is loaded on its
 * first run, before the worker tells the pool the task started: its time limit never pays for it.
 * The entry point that gives it the app's table is lib/server/cpu-worker.ts.
 */
export function serveCpuTasks<T extends CpuTaskTable>(tasks: CpuTaskImplementations<T>, loaders: TaskModuleLoaders<T> = {}): void {
  // On Linux a thread is a task with its own nice value: this one yields the CPU to the event loop
  // thread, so requests keep being answered while every core chews on hostile files.
  try {
    setPriority(Number(readlinkSync("/proc/thread-self").split("/").pop()), 10);
  } catch {
    // not Linux, or not allowed: the pool still works, only without the priority hint
  }
  const table: Record<string, UntypedTask> = tasks;
  const loaderTable: Record<string, (() => Promise<unknown>) | undefined> = loaders;
  parentPort!.on("message", (message: Incoming) => void handle(table, loaderTable, message));
}

const pendingCalls = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
let nextCallId = 1;

/** Asks the main thread for what only it has (the database, the network), for the running task. */
function context(jobId: number): TaskContext<MainThreadCalls> {
  const call = (name: string, ...args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      const callId = nextCallId++;
      pendingCalls.set(callId, { resolve, reject });
      parentPort!.postMessage({ kind: "call", id: jobId, callId, name, args });
    });
  return { call };
}

// One task at a time, so the running task's context is the one a call made outside its own
// context (a key signature deep in an engine) belongs to.
let runningContext: TaskContext<BuiltInCalls> | undefined;

/** Asks the main thread, for the running task, to sign with a key only it holds (the worker entry wires it to the key registry). */
export function signForRunningTask(label: string, data: Uint8Array): Promise<Uint8Array> {
  if (!runningContext) throw new Error("key signature asked for outside a task");
  return runningContext.call("sign-with-token-key", label, data);
}

/** The tasks this worker has run: the first run of each loads its code and tells the pool it started. */
const startedTasks = new Set<string>();

// One task at a time per worker: the pool never sends another before this one answers.
async function handle(tasks: Record<string, UntypedTask>, loaders: Record<string, (() => Promise<unknown>) | undefined>, message: Incoming): Promise<void> {
  if (message.kind === "memory") return void parentPort!.postMessage({ kind: "memory", id: message.id, memory: ownMemory() });
  if (message.kind === "preload") {
    // in the background: a task that comes meanwhile awaits the same import; one that fails here fails again, reported, on the task's run
    for (const task of message.tasks) if (Object.hasOwn(loaders, task)) void loaders[task]?.().catch(() => undefined);
    return;
  }
  if (message.kind === "reply") {
    const call = pendingCalls.get(message.callId);
    pendingCalls.delete(message.callId);
    if (message.ok) call?.resolve(message.output);
    else call?.reject(deserializeError(message.error!));
    return;
  }
  try {
    const task = tasks[message.task];
    if (!Object.hasOwn(tasks, message.task)) throw new Error(`no task ${message.task}`);
    if (!startedTasks.has(message.task)) {
      // once per task kind: from now on the pool's time limit is the task's alone (the worker's and the task's modules are loaded)
      if (Object.hasOwn(loaders, message.task)) await loaders[message.task]?.();
      startedTasks.add(message.task);
      parentPort!.postMessage({ kind: "started", id: message.id });
    }
    const taskContext = context(message.id);
    runningContext = taskContext;
    // the pool sent the input its typed `run` was given for this task name (lib/runtime/cpu-pool.ts)
    const run = () => task(message.input as never, taskContext);
    const inputBuffers = topLevelBuffers(message.input);
    if (!message.timing) {
      const output = await run();
      parentPort!.postMessage({ kind: "done", id: message.id, ok: true, output }, ownedBuffers(output, inputBuffers));
      return;
    }
    // a profiled request: the stages measured here travel back with the output
    const { result, stages, totalMs } = await recordStages(async () => run());
    parentPort!.postMessage({ kind: "done", id: message.id, ok: true, output: result, timing: { stages, totalMs } }, ownedBuffers(result, inputBuffers));
  } catch (error) {
    parentPort!.postMessage({ kind: "done", id: message.id, ok: false, error: serializeError(error) });
  }
}
