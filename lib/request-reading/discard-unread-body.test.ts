import { describe, expect, it } from "vitest";
import { discardUnreadBody } from "./discard-unread-body";
import { streamedRequest } from "./testing/streamed-request";

describe("discardUnreadBody", () => {
  it("reads an unread body to its end", async () => {
    const { request, state } = streamedRequest([1000, 1000, 500]);
    await discardUnreadBody(request, { maxBytes: 10_000, maxMs: 60_000 });
    expect(state.pulled).toBe(2500);
    expect(state.cancelled).toBe(false);
  });

  it("leaves a body declared over the limit unread", async () => {
    const { request, state } = streamedRequest([1000], { headers: { "content-length": "10001" } });
    await discardUnreadBody(request, { maxBytes: 10_000, maxMs: 60_000 });
    expect(state.pulled).toBe(0);
  });

  it("stops once an undeclared body passes the limit", async () => {
    const { request, state } = streamedRequest(Array.from({ length: 50 }, () => 1000));
    await discardUnreadBody(request, { maxBytes: 4_500, maxMs: 60_000 });
    expect(state.pulled).toBe(5000);
    expect(state.cancelled).toBe(true);
  });

  it("gives up on a client that stops sending once the time is spent", async () => {
    const { request, state } = streamedRequest([1000, 1000], { stallAfter: 1 });
    await discardUnreadBody(request, { maxBytes: 10_000, maxMs: 50 });
    expect(state.pulled).toBe(1000);
    expect(state.cancelled).toBe(true);
  });

  it("leaves alone a body the handler already read, and a request without one", async () => {
    const { request, state } = streamedRequest([1000, 1000]);
    await request.arrayBuffer();
    await discardUnreadBody(request, { maxBytes: 10_000, maxMs: 60_000 });
    expect(state.pulled).toBe(2000);
    await expect(discardUnreadBody(new Request("http://x/api/health"), { maxBytes: 10, maxMs: 10 })).resolves.toBeUndefined();
  });

  it("leaves alone a body a reader holds without having read it yet (getReader would throw)", async () => {
    const { request, state } = streamedRequest([1000, 1000]);
    const held = request.body!.getReader();
    await expect(discardUnreadBody(request, { maxBytes: 10_000, maxMs: 60_000 })).resolves.toBeUndefined();
    expect(state.pulled).toBe(0);
    held.releaseLock();
  });
});
