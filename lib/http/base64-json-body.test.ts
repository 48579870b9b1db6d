import { describe, expect, it } from "vitest";
import { base64JsonBody } from "./base64-json-body";

const read = async (body: ReadableStream<Uint8Array>) => {
  const chunks: Uint8Array[] = [];
  for (const reader = body.getReader(); ; ) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
  }
};

describe("base64JsonBody", () => {
  it("answers the JSON that JSON.stringify would, for sizes around its pieces", async () => {
    const piece = 3 * 256 * 1024;
    for (const size of [0, 1, 2, 3, 1000, piece - 1, piece, piece + 1, 2 * piece, 2 * piece + 2, 3 * piece + 1]) {
      const bytes = new Uint8Array(size + 9).map((_, i) => (i * 131 + 7) % 256).subarray(4, size + 4);
      const text = Buffer.concat(await read(base64JsonBody({ success: true, tx_token: "t-1" }, "signed_pdf", bytes))).toString("utf8");
      const answer = JSON.parse(text) as Record<string, unknown>;
      expect(answer).toEqual({ success: true, tx_token: "t-1", signed_pdf: Buffer.from(bytes).toString("base64") });
    }
  });

  it("keeps the other members' text as UTF-8 and escaped", async () => {
    const fields = { message: "José \"Pérez\" \u2028 ✓", list: ["Ñandú: CRL no disponible"] };
    const text = Buffer.concat(await read(base64JsonBody(fields, "signed_pdf", new Uint8Array([1, 2, 3])))).toString("utf8");
    expect(JSON.parse(text)).toEqual({ ...fields, signed_pdf: "AQID" });
  });

  it("makes a piece only when the reader asks for one", async () => {
    let pulled = 0;
    const bytes = new Uint8Array(10 * 1024 * 1024);
    const body = base64JsonBody({ ok: 1 }, "data", new Proxy(bytes, {
      get(target, property) {
        if (property === "subarray") return (start: number, end: number) => (pulled++, target.subarray(start, end));
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    }));
    const reader = body.getReader();
    await new Promise((resolve) => setImmediate(resolve));
    expect(pulled).toBe(0);
    await reader.read();
    await new Promise((resolve) => setImmediate(resolve));
    expect(pulled).toBe(1);
    await reader.cancel();
  });

  it("lets the event loop run between pieces, even for a reader that never waits", async () => {
    const pieces = 8;
    const body = base64JsonBody({ ok: 1 }, "data", new Uint8Array(pieces * 3 * 256 * 1024));
    let loopRan = false;
    setImmediate(() => (loopRan = true));
    let readBeforeLoopRan = 0;
    const reader = body.getReader();
    while (!(await reader.read()).done) if (!loopRan) readBeforeLoopRan++;
    // without the yield every piece is made in microtasks, before any timer or I/O callback
    expect(readBeforeLoopRan).toBeLessThan(pieces);
  });

  it("refuses an object with no other member (its text would not be JSON)", () => {
    expect(() => base64JsonBody({}, "data", new Uint8Array(1))).toThrow(/at least one other member/);
  });
});
