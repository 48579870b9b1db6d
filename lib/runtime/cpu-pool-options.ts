import type { ResourceLimits, Worker } from "node:worker_threads";
import type { CpuTaskTable, KeySigningHandler } from "./cpu-task";

/** Why a task was stopped: it ran past its time, or its worker ran out of its heap. */
export type TaskLimit = { task: string; kind: "time" | "memory"; timeoutMs: number };

export type CpuPoolOptions<Tasks extends CpuTaskTable = CpuTaskTable> = {
  /** The contracts this pool runs (with the key purposes each may use); any other task name is refused. */
  tasks: Tasks;
  /**
   * Starts one worker that serves `tasks` (lib/runtime/serve-cpu-tasks.ts), with these limits and this
   * environment: the composition root names the entry, so the pool knows no app file.
   */
  startWorker: (options: { resourceLimits: ResourceLimits; env: Record<string, string> }) => Worker;
  /** The environment workers see instead of the main thread's (default: empty): secrets stay out. */
  workerEnv?: Record<string, string>;
  /** The error a task gets when it is stopped at a limit (each pool's caller knows what it means to its users). */
  limitError: (limit: TaskLimit) => Error;
  /** Answers a task's request for a signature with a main-thread key; none given, every such request is refused. */
  signWithKey?: KeySigningHandler;
  /**
   * Tasks whose code a new worker loads as soon as it starts, in the background: the pool's usual
   * work is then ready when the first request comes (readiness answers meanwhile). Any other
   * task's code loads on its first run (lib/runtime/serve-cpu-tasks.ts). Default: none.
   */
  preloadTasks?: readonly (keyof Tasks & string)[];
  /** Worker threads (default: one per core). */
  size?: number;
  /** Tasks that may wait for a worker; past it the pool answers BUSY (503 with Retry-After). */
  maxQueue?: number;
  /** Tasks one owner (the `owner` of `run`) may have waiting; past it only that owner is answered BUSY. */
  maxQueuePerOwner?: number;
  /** A task running longer is stopped: its worker is terminated and replaced. */
  taskTimeoutMs?: number;
  /** The pool's name in metrics (cpu, face, revocation). */
  name?: string;
  /** Heap limit of each worker; a task that needs more gets `limitError`, the server lives on. */
  maxHeapMb?: number;
  /**
   * Young-generation limit of each worker (V8's default lets it grow to 32 MB per worker under load
   * and keep it); short-lived objects of a task are collected sooner within it. Default: V8's own.
   */
  maxYoungGenerationMb?: number;
  /**
   * A worker idle this long exits (its heap goes back to the system) while more than `keep` live;
   * the next task past the live ones starts a new one. Default: workers live until closed.
   */
  idleExit?: { afterMs: number; keep: number };
  /**
   * The anonymous lane (public verification): at most `running` of its tasks hold workers at once
   * (default: all workers but one, at least one) and at most `queued` wait, in a queue of their own;
   * past that its callers get BUSY while signing keeps the rest of the pool and the whole main queue.
   */
  publicLane?: { running?: number; queued?: number };
};

/** Which share of the pool a task draws on. */
export type CpuLane = "main" | "public";

/** Where and how a task runs: `transfer` buffers moved to the worker, the lane, the owner it waits in line for. */
export type RunOptions = { lane?: CpuLane; owner?: string };
