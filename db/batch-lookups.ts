/** Reads that concurrent callers share; `get` settles with its key's value once the statement holding its key has. */
export type BatchLookups<Key, Value> = { get: (key: Key) => Promise<Value | undefined> };

type Waiting<Key, Value> = { key: Key; resolve: (value: Value | undefined) => void; reject: (error: unknown) => void };

/**
 * Batched reads, as group commit batches writes (group-commit.ts): one statement reads the keys of
 * every caller that arrived in the same turn of the event loop, or while the previous statement ran
 * (at most `maxKeys` distinct keys per statement). The first statement starts at the end of the
 * turn (setImmediate), for the reason group-commit.ts gives: on PGlite nothing arrives while a
 * statement runs. There is no timer: a caller alone waits for no more than the rest of its turn.
 * A failed statement fails the callers whose keys it held, and only them.
 */
export function batchLookups<Key, Value>({ maxKeys, lookup }: { maxKeys: number; lookup: (keys: Key[]) => Promise<Map<Key, Value>> }): BatchLookups<Key, Value> {
  if (!Number.isInteger(maxKeys) || maxKeys < 1) throw new RangeError("maxKeys must be a positive integer");
  const queue: Waiting<Key, Value>[] = [];
  let reading = false;

  const nextBatch = () => {
    const keys = new Set<Key>();
    let taken = 0;
    while (taken < queue.length && (keys.has(queue[taken].key) || keys.size < maxKeys)) keys.add(queue[taken++].key);
    return { keys: [...keys], waiting: queue.splice(0, taken) };
  };

  const drain = async () => {
    reading = true;
    try {
      while (queue.length > 0) {
        const batch = nextBatch();
        try {
          const found = await lookup(batch.keys);
          for (const waiting of batch.waiting) waiting.resolve(found.get(waiting.key));
        } catch (error) {
          for (const waiting of batch.waiting) waiting.reject(error);
        }
      }
    } finally {
      reading = false;
    }
  };

  return {
    get: (key) =>
      new Promise<Value | undefined>((resolve, reject) => {
        queue.push({ key, resolve, reject });
        if (reading) return;
        // the statement starts once this turn's callers have come (see above)
        reading = true;
        setImmediate(() => void drain());
      }),
  };
}
