import { getHeapSpaceStatistics, getHeapStatistics } from "node:v8";

// What a pool's workers report of their own memory (lib/runtime/cpu-pool.ts workerMemory, shown in /api/metrics).

/** One worker's own heap (V8 isolate), as it reports it: what the pool's share of the process RSS is made of. */
export type WorkerMemory = {
  /** Bytes V8 holds for the heap (all spaces), used or not. */
  heapTotal: number;
  heapUsed: number;
  /** The young generation (semi-spaces): under load it grows to its limit and stays. */
  newSpace: number;
  /** Compiled code and bytecode spaces. */
  code: number;
  /** Memory outside the heap owned by JS objects (ArrayBuffers, Buffers). */
  external: number;
};

/** How long a worker has to report its memory before it is left out of the reading (it runs a long synchronous task). */
export const MEMORY_READING_TIMEOUT_MS = 2_000;

/** The calling worker's heap, read between tasks or at a task's awaits (the pool asks with a `memory` message). */
export function ownMemory(): WorkerMemory {
  const heap = getHeapStatistics();
  const spaces = getHeapSpaceStatistics();
  const spaceSize = (...names: string[]) => spaces.filter((space) => names.includes(space.space_name)).reduce((sum, space) => sum + space.space_size, 0);
  return {
    heapTotal: heap.total_heap_size,
    heapUsed: heap.used_heap_size,
    newSpace: spaceSize("new_space"),
    code: spaceSize("code_space", "code_large_object_space"),
    external: heap.external_memory,
  };
}

/** Where a pool waits for one worker's `memory` answers, by reading id. */
export type MemoryReaders = Map<number, (memory: WorkerMemory) => void>;

/**
 * Asks one worker for its heap and waits up to MEMORY_READING_TIMEOUT_MS (undefined after: the
 * worker is busy with a synchronous task). The answer comes back through `readers`, which the
 * pool's message handler calls for a `memory` message.
 */
export function readWorkerMemory(worker: { postMessage(message: unknown): void }, readers: MemoryReaders, id: number): Promise<WorkerMemory | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(undefined), MEMORY_READING_TIMEOUT_MS);
    const done = (memory: WorkerMemory | undefined) => {
      clearTimeout(timer);
      readers.delete(id);
      resolve(memory);
    };
    readers.set(id, done);
    worker.postMessage({ kind: "memory", id });
  });
}
