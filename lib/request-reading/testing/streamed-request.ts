/**
 * A request whose body is `chunks` pulled one at a time; `pulled` counts what a reader took, and
 * `cancelled` whether it gave up on the rest. `stallAfter`: chunks sent before the client stops.
 */
export function streamedRequest(chunks: number[], options: { stallAfter?: number; headers?: Record<string, string> } = {}) {
  const state = { pulled: 0, cancelled: false };
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (options.stallAfter !== undefined && index >= options.stallAfter) return new Promise<void>(() => undefined);
      if (index === chunks.length) return controller.close();
      state.pulled += chunks[index];
      controller.enqueue(new Uint8Array(chunks[index++]));
    },
    cancel() {
      state.cancelled = true;
    },
  }, { highWaterMark: 0 });
  const request = new Request("http://x/api/verify", { method: "POST", body, headers: options.headers, duplex: "half" } as RequestInit);
  return { request, state };
}
