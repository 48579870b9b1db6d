// Which buffers of a finished task move back to the main thread instead of being copied (serve-cpu-tasks.ts).

const TRANSFER_FROM_BYTES = 64 * 1024;

/** The byte arrays of a value (itself or its top-level fields). */
function topLevelArrays(value: unknown): Uint8Array[] {
  const candidates = value instanceof Uint8Array ? [value] : value && typeof value === "object" ? Object.values(value) : [];
  return candidates.filter((candidate): candidate is Uint8Array => candidate instanceof Uint8Array && candidate.buffer instanceof ArrayBuffer);
}

/** The buffers a task's input came in: moved or cloned, each is this task's alone. */
export function topLevelBuffers(input: unknown): Set<ArrayBufferLike> {
  return new Set(topLevelArrays(input).map((array) => array.buffer));
}

/**
 * The large byte arrays of a task's output (itself or its top-level fields) that alone own their
 * memory: moved to the main thread instead of copied (a signed 50 MB PDF). That is an array covering
 * its whole buffer, or one starting a buffer the input came in (an upload the signature's revisions
 * were written after, lib/pdf/join-revisions.ts: the rest is unused room). Small arrays, other views
 * into a larger buffer (Node's shared pool among them) and shared memory are copied as usual.
 */
export function ownedBuffers(output: unknown, inputBuffers: Set<ArrayBufferLike>): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const value of topLevelArrays(output)) {
    const alone = value.byteLength === value.buffer.byteLength || inputBuffers.has(value.buffer);
    if (value.byteOffset === 0 && alone && value.byteLength >= TRANSFER_FROM_BYTES) buffers.add(value.buffer as ArrayBuffer);
  }
  return [...buffers];
}
