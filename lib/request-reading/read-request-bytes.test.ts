import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { readRequestBytes } from "./read-request-bytes";
import { streamedRequest } from "./testing/streamed-request";

const tail = { maxBytes: 5_000, maxMs: 60_000 };
const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

describe("readRequestBytes", () => {
  it("returns a body within the limit whole", async () => {
    const { request } = streamedRequest([1000, 1000, 500]);
    expect((await readRequestBytes(request, 2_500, tail)).byteLength).toBe(2500);
  });

  it("refuses a body past the limit with 413 after dropping a tail within its bound, so the client gets the answer", async () => {
    const { request, state } = streamedRequest(Array.from({ length: 6 }, () => 1000));
    const error = await refusal(readRequestBytes(request, 2_500, tail));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", field: "body" });
    // all 6000 bytes were taken (to the end of the body), none of them kept
    expect(state).toEqual({ pulled: 6000, cancelled: false });
  });

  it("leaves the rest unread once the tail passes its bound", async () => {
    const { request, state } = streamedRequest(Array.from({ length: 50 }, () => 1000));
    expect(await refusal(readRequestBytes(request, 2_500, tail))).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    // 3000 to pass the limit, then 6000 to pass the tail's 5000
    expect(state).toEqual({ pulled: 9000, cancelled: true });
  });

  it("drops a declared length within the tail, and refuses a larger one without reading", async () => {
    const within = streamedRequest([4000, 3000], { headers: { "content-length": "7000" } });
    expect(await refusal(readRequestBytes(within.request, 2_500, tail))).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    expect(within.state).toEqual({ pulled: 7000, cancelled: false });
    const beyond = streamedRequest([4000, 4000], { headers: { "content-length": "8000" } });
    expect(await refusal(readRequestBytes(beyond.request, 2_500, tail))).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    expect(beyond.state.pulled).toBe(0);
  });

  it("answers a client that stalls in its tail once the time is spent", async () => {
    const { request, state } = streamedRequest([2000, 2000, 1000], { stallAfter: 2 });
    expect(await refusal(readRequestBytes(request, 2_500, { maxBytes: 5_000, maxMs: 50 }))).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    expect(state).toEqual({ pulled: 4000, cancelled: true });
  });
});
