// A closed-loop load client for the benchmarks: `concurrency` callers, each sending its next request
// as soon as its previous answer was read, until `total` were sent.

/** Sends `total` requests, `concurrency` at a time; throws on the first answer that is not 2xx. */
export async function sendClosedLoop({ total, concurrency }: { total: number; concurrency: number }, call: () => Promise<Response>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const response = await call();
        const body = await response.text();
        if (!response.ok) throw new Error(`HTTP ${response.status}: ${body.slice(0, 300)}`);
      }
    }),
  );
}
