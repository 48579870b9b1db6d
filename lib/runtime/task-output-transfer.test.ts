import { describe, expect, it } from "vitest";
import { ownedBuffers, topLevelBuffers } from "./task-output-transfer";

const KB = 1024;

describe("what a finished task moves back instead of copying", () => {
  it("an array covering its whole buffer, large enough to be worth it", () => {
    const whole = new Uint8Array(100 * KB);
    const small = new Uint8Array(10 * KB);
    expect(ownedBuffers({ pdf: whole, small }, new Set())).toEqual([whole.buffer]);
    expect(ownedBuffers(whole, new Set())).toEqual([whole.buffer]);
  });

  it("the start of a buffer the input came in (an upload with the signature's revisions written after it): the rest is room", () => {
    const upload = new Uint8Array(new ArrayBuffer(300 * KB), 0, 200 * KB);
    const input = { pdf: upload, fields: {} };
    const output = { pdf: new Uint8Array(upload.buffer, 0, 230 * KB), sha256: "…" };
    expect(ownedBuffers(output, topLevelBuffers(input))).toEqual([upload.buffer]);
  });

  it("never a view into a buffer the task did not get with its input, nor one that starts inside a buffer", () => {
    const elsewhere = new ArrayBuffer(300 * KB);
    expect(ownedBuffers({ pdf: new Uint8Array(elsewhere, 0, 200 * KB) }, new Set())).toEqual([]);
    const upload = new Uint8Array(300 * KB);
    expect(ownedBuffers({ pdf: upload.subarray(8, 200 * KB) }, topLevelBuffers({ pdf: upload }))).toEqual([]);
  });
});
