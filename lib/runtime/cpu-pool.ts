import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { AppError } from "@/lib/errors";
import type { CpuTaskTable, KeySigningHandler, NoCalls, TaskCalls, TaskInput, TaskOutput } from "./cpu-task";
import { deserializeError, type SerializedError } from "./task-errors";
import { addStages, isRecording } from "./request-timing";
import { metrics } from "@/lib/metrics/metrics";
import { FairQueue } from "./fair-queue";
import { readWorkerMemory, type MemoryReaders, type WorkerMemory } from "./worker-memory";
import { answerTaskCall, rejectAfterCalls, type PoolJob, type TaskCallMessage, type TaskCallReply, type TaskTiming } from "./pool-task-calls";
import type { CpuPoolOptions, RunOptions, TaskLimit } from "./cpu-pool-options";

export type { WorkerMemory } from "./worker-memory";
export type { CpuLane, CpuPoolOptions, RunOptions, TaskLimit } from "./cpu-pool-options";

/** What a use case asks of a pool: `run` over the contracts it names (a pool over a wider table gives it). */
export type TaskRunner<Tasks extends CpuTaskTable> = Pick<CpuPool<Tasks>, "run">;

/** A task's calls may be left out only when its contract names none. */
type RunArguments<Calls> = [NoCalls] extends [Calls]
  ? [calls?: Calls, transfer?: ArrayBuffer[], options?: RunOptions]
  : [calls: Calls, transfer?: ArrayBuffer[], options?: RunOptions];

type WorkerMessage =
  | { kind: "done"; id: number; ok: boolean; output?: unknown; error?: SerializedError; timing?: TaskTiming }
  | { kind: "memory"; id: number; memory: WorkerMemory }
  | TaskCallMessage
  | { kind: "started"; id: number };
type Slot = { worker: Worker; job?: PoolJob; timer?: NodeJS.Timeout; idleTimer?: NodeJS.Timeout; startedTasks: Set<string>; memoryReaders: MemoryReaders };


/**
 * A new worker first loads its modules, and the first run of each task kind in a worker its code
 * (seconds on a busy machine when run from sources); that loading is not the task's time. Until the
 * worker says it started the task, it gets this much more.
 */
const WORKER_BOOT_ALLOWANCE_MS = 30_000;

/**
 * A small pool of worker threads for CPU-heavy, pure work, so the event loop keeps answering while
 * hostile input is chewed on. Bounded queue, per-task time and heap limits; a worker that dies or
 * times out is replaced on the next task. Generic: the composition root gives it the task table
 * (contracts, lib/runtime/cpu-task.ts), how to start a worker, what a stopped task's error is and
 * who signs with main-thread keys.
 */
export class CpuPool<Tasks extends CpuTaskTable = CpuTaskTable> {
  private readonly slots: Slot[] = [];
  private readonly queue: FairQueue<PoolJob>;
  /** The public lane's own waiting line, bounded by `publicQueued`. */
  private readonly publicQueue: PoolJob[] = [];
  private nextId = 1;
  private readonly size: number;
  private readonly maxQueue: number;
  private readonly taskTimeoutMs: number;
  private readonly maxHeapMb: number;
  private readonly maxYoungGenerationMb?: number;
  private readonly idleExit?: { afterMs: number; keep: number };
  readonly name: string;
  private readonly publicRunning: number;
  private readonly publicQueued: number;
  private readonly tasks: Tasks;
  private readonly startWorker: CpuPoolOptions["startWorker"];
  private readonly workerEnv: Record<string, string>;
  private readonly limitError: (limit: TaskLimit) => Error;
  private readonly signWithKey?: KeySigningHandler;
  private readonly preloadTasks: readonly string[];

  constructor(options: CpuPoolOptions<Tasks>) {
    this.tasks = options.tasks;
    this.startWorker = options.startWorker;
    this.workerEnv = { ...options.workerEnv };
    this.limitError = options.limitError;
    this.signWithKey = options.signWithKey;
    this.preloadTasks = options.preloadTasks ?? [];
    this.name = options.name ?? "cpu";
    this.size = Math.max(1, options.size ?? availableParallelism());
    this.maxQueue = options.maxQueue ?? 32;
    this.queue = new FairQueue({ perOwner: options.maxQueuePerOwner ?? this.maxQueue, total: this.maxQueue });
    this.taskTimeoutMs = options.taskTimeoutMs ?? 60_000;
    this.maxHeapMb = options.maxHeapMb ?? 1024;
    this.maxYoungGenerationMb = options.maxYoungGenerationMb;
    this.idleExit = options.idleExit;
    this.publicRunning = Math.max(1, Math.min(this.size, options.publicLane?.running ?? this.size - 1));
    this.publicQueued = Math.max(0, options.publicLane?.queued ?? 8);
  }

  /**
   * `transfer`: buffers of the input that the caller gives up, moved to the worker instead of copied.
   * `lane`: the anonymous public lane has a share of the workers and a queue of its own.
   * `owner`: whose task it is (an organization); main-lane tasks wait one owner at a time, in turn.
   */
  async run<N extends keyof Tasks & string>(task: N, input: TaskInput<Tasks[N]>, ...[calls, transfer = [], { lane = "main", owner = "" } = {}]: RunArguments<TaskCalls<Tasks[N]>>): Promise<TaskOutput<Tasks[N]>> {
    if (!Object.hasOwn(this.tasks, task)) throw new Error(`the ${this.name} pool has no task ${task}`);
    if (lane === "public" && this.publicQueue.length >= this.publicQueued) throw new AppError("BUSY", "El servicio está ocupado; reintente en unos segundos.");
    const timing = isRecording();
    const started = performance.now();
    const observe = (outcome: "ok" | "error") => metrics().poolTaskDuration.observe({ pool: this.name, task, outcome }, (performance.now() - started) / 1000);
    const done = await new Promise<{ output: unknown; timing?: TaskTiming }>((resolve, reject) => {
      const job: PoolJob = { id: this.nextId++, task, input, calls: calls ?? {}, callsInFlight: new Set(), timing, transfer, lane, resolve, reject };
      if (lane === "public") this.publicQueue.push(job);
      else if (!this.queue.push(owner, job)) return reject(new AppError("BUSY", "El servicio está ocupado; reintente en unos segundos."));
      this.dispatch();
    }).catch((error: unknown) => {
      observe("error");
      throw error;
    });
    observe("ok");
    if (done.timing) {
      // the worker's own stages, plus what waiting, copying and messaging cost ("pool")
      const elapsed = performance.now() - started;
      const measured = Object.values(done.timing.stages).reduce((sum, ms) => sum + (ms ?? 0), 0);
      const pool = Math.max(0, elapsed - done.timing.totalMs);
      addStages({ ...done.timing.stages, pool: (done.timing.stages.pool ?? 0) + pool }, measured + pool);
    }
    // the worker ran the implementation the compiler checked against this contract (the composition root's table)
    return done.output as TaskOutput<Tasks[N]>;
  }

  /** Tasks waiting for a worker. */
  get queueLength(): number {
    return this.queue.length + this.publicQueue.length;
  }

  /** Whether any worker was started (the face pool starts on the first facial check). */
  get started(): boolean {
    return this.slots.length > 0;
  }

  /** Live workers, busy or idle. */
  get workers(): number {
    return this.slots.length;
  }

  get busyWorkers(): number {
    return this.slots.filter((slot) => slot.job).length;
  }

  /**
   * Each live worker's heap, asked of the worker itself (Node 20 has no Worker#getHeapStatistics);
   * a worker busy with a synchronous task past MEMORY_READING_TIMEOUT_MS is left out.
   */
  async workerMemory(): Promise<WorkerMemory[]> {
    const readings = await Promise.all(this.slots.map((slot) => readWorkerMemory(slot.worker, slot.memoryReaders, -this.nextId++)));
    return readings.filter((memory): memory is WorkerMemory => memory !== undefined);
  }

  /** Terminates every worker (tests, shutdown); queued tasks are refused. */
  async close(): Promise<void> {
    for (const job of [...this.queue.drain(), ...this.publicQueue.splice(0)]) job.reject(new AppError("BUSY", "El servicio se está deteniendo."));
    for (const slot of this.slots) clearTimeout(slot.idleTimer);
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  /**
   * The next task to start: the older of the two lines' heads (first come, first served), except
   * that public tasks past their share of workers wait.
   */
  private nextJob(): PoolJob | undefined {
    const publicBusy = this.slots.filter((candidate) => candidate.job?.lane === "public").length >= this.publicRunning;
    const main = this.queue.peek();
    const anonymous = publicBusy ? undefined : this.publicQueue[0];
    if (anonymous && (!main || anonymous.id < main.id)) return this.publicQueue.shift();
    return main ? this.queue.shift() : undefined;
  }

  private dispatch(): void {
    this.startTasks();
    if (this.idleExit) for (const slot of this.slots) if (!slot.job && !slot.idleTimer) this.startIdleTimer(slot, this.idleExit);
  }

  /** Ends an idle worker after `afterMs`, unless a task came meanwhile or only `keep` workers are left. */
  private startIdleTimer(slot: Slot, { afterMs, keep }: { afterMs: number; keep: number }): void {
    slot.idleTimer = setTimeout(() => {
      slot.idleTimer = undefined;
      if (slot.job || this.slots.length <= keep) return;
      this.remove(slot);
      void slot.worker.terminate();
    }, afterMs);
    slot.idleTimer.unref();
  }

  private startTasks(): void {
    while (this.queueLength > 0) {
      let slot = this.slots.find((candidate) => !candidate.job);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const job = this.nextJob();
      if (!job) return;
      slot.job = job;
      clearTimeout(slot.idleTimer);
      slot.idleTimer = undefined;
      this.startTimer(slot, job, slot.startedTasks.has(job.task) ? this.taskTimeoutMs : this.taskTimeoutMs + WORKER_BOOT_ALLOWANCE_MS);
      slot.worker.postMessage({ kind: "task", id: job.id, task: job.task, input: job.input, timing: job.timing || undefined }, job.transfer);
    }
  }

  private spawn(): Slot {
    const resourceLimits = { maxOldGenerationSizeMb: this.maxHeapMb, ...(this.maxYoungGenerationMb ? { maxYoungGenerationSizeMb: this.maxYoungGenerationMb } : {}) };
    const worker = this.startWorker({ resourceLimits, env: { ...this.workerEnv } });
    worker.unref();
    if (this.preloadTasks.length > 0) worker.postMessage({ kind: "preload", tasks: this.preloadTasks });
    const slot: Slot = { worker, startedTasks: new Set(), memoryReaders: new Map() };
    worker.on("message", (message: WorkerMessage) => {
      if (message.kind === "memory") return void slot.memoryReaders.get(message.id)?.(message.memory);
      const job = slot.job;
      if (!job || job.id !== message.id) return;
      if (message.kind === "started") {
        // the task's own time limit runs from here, whatever the worker's boot or the loading of the task's code took
        this.startTimer(slot, job, this.taskTimeoutMs);
        slot.startedTasks.add(job.task);
        return;
      }
      if (message.kind === "call") {
        const reply = (body: TaskCallReply) => {
          if (slot.job === job) slot.worker.postMessage({ kind: "reply", callId: message.callId, ...body });
        };
        return void answerTaskCall(job, message, { purposes: this.tasks[job.task].keys, signWithKey: this.signWithKey, reply });
      }
      this.settle(slot);
      if (message.ok) job.resolve({ output: message.output, timing: message.timing });
      else rejectAfterCalls(job, deserializeError(message.error!));
      this.dispatch();
    });
    worker.on("error", (error: Error & { code?: string }) => {
      const tooBig = error.code === "ERR_WORKER_OUT_OF_MEMORY" && slot.job;
      this.fail(slot, tooBig ? this.limitError({ task: slot.job!.task, kind: "memory", timeoutMs: this.taskTimeoutMs }) : error);
    });
    worker.on("exit", () => {
      if (slot.job) this.fail(slot, new Error("worker exited"));
      this.remove(slot);
    });
    this.slots.push(slot);
    return slot;
  }

  private startTimer(slot: Slot, job: PoolJob, ms: number): void {
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => this.fail(slot, this.limitError({ task: job.task, kind: "time", timeoutMs: this.taskTimeoutMs })), ms);
  }

  private settle(slot: Slot): void {
    clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
  }

  /** Rejects the slot's task and replaces its worker (a stuck or broken worker is never reused). */
  private fail(slot: Slot, error: Error): void {
    const job = slot.job;
    this.settle(slot);
    this.remove(slot);
    void slot.worker.terminate();
    if (job) rejectAfterCalls(job, error);
    this.dispatch();
  }

  private remove(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index !== -1) this.slots.splice(index, 1);
  }
}
