import { describe, expect, it } from "vitest";
import { joinRevisions } from "./join-revisions";

const bytesOf = (text: string) => new Uint8Array(Buffer.from(text, "latin1"));

describe("joinRevisions", () => {
  it("writes the revisions after the document in its own buffer when the caller gives that room: a longer view, the document unchanged", () => {
    const buffer = new ArrayBuffer(64);
    const document = new Uint8Array(buffer, 0, 10);
    document.set(bytesOf("%PDF-1.7\n%"));
    const joined = joinRevisions(document, [bytesOf("rev1\n"), bytesOf("rev2\n")], { tailIsFree: true });
    expect(joined.buffer).toBe(buffer);
    expect(Buffer.from(joined).toString("latin1")).toBe("%PDF-1.7\n%rev1\nrev2\n");
    expect(Buffer.from(document).toString("latin1")).toBe("%PDF-1.7\n%");
  });

  it("copies when the caller does not give the room, even if the buffer has it: what follows may be someone else's", () => {
    const buffer = new ArrayBuffer(64);
    const shared = new Uint8Array(buffer);
    shared.set(bytesOf("another request's bytes"), 10);
    const document = new Uint8Array(buffer, 0, 10);
    const joined = joinRevisions(document, [bytesOf("rev1\n")]);
    expect(joined.buffer).not.toBe(buffer);
    expect(Buffer.from(shared.subarray(10, 33)).toString("latin1")).toBe("another request's bytes");
  });

  it("copies when the revisions do not fit the room, and from a document that starts inside its buffer", () => {
    const buffer = new ArrayBuffer(20);
    const document = new Uint8Array(buffer, 4, 10);
    document.set(bytesOf("0123456789"));
    const joined = joinRevisions(document, [bytesOf("0123456789")], { tailIsFree: true });
    expect(joined.buffer).not.toBe(buffer);
    expect(Buffer.from(joined).toString("latin1")).toBe("01234567890123456789");
    const fits = joinRevisions(document, [bytesOf("abcdef")], { tailIsFree: true });
    expect(fits.buffer).toBe(buffer);
    expect(fits.byteOffset).toBe(4);
    expect(Buffer.from(fits).toString("latin1")).toBe("0123456789abcdef");
  });
});
