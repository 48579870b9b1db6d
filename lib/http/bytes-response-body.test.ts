import { describe, expect, it } from "vitest";
import { bytesResponseBody } from "./bytes-response-body";

describe("bytesResponseBody", () => {
  it("answers the same bytes, once, and reads the caller's memory rather than a copy of it", async () => {
    const bytes = new Uint8Array(3 * 1024 * 1024).map((_, i) => i % 251);
    const view = bytes.subarray(5, bytes.length - 7);
    const reader = bytesResponseBody(view).getReader();
    const first = await reader.read();
    // the chunk is the caller's own view: undici's `new Response(bytes)` would have sliced a copy
    expect(first.value?.buffer).toBe(bytes.buffer);
    expect(first.value?.byteOffset).toBe(5);
    expect((await reader.read()).done).toBe(true);
    const answered = new Uint8Array(await new Response(bytesResponseBody(view)).arrayBuffer());
    expect(Buffer.from(answered).equals(Buffer.from(view))).toBe(true);
  });

  it("an empty body closes without a chunk", async () => {
    expect(await bytesResponseBody(new Uint8Array(0)).getReader().read()).toEqual({ done: true, value: undefined });
  });
});
