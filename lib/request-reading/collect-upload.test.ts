import { describe, expect, it } from "vitest";
import { REVISION_ROOM_BYTES, UploadCollector } from "./collect-upload";

const MB = 1024 * 1024;

/** Bytes that differ from chunk to chunk, so a chunk written at the wrong offset shows. */
function chunksOf(total: number, chunkSize: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < total; offset += chunkSize) {
    const chunk = new Uint8Array(Math.min(chunkSize, total - offset));
    for (let i = 0; i < chunk.length; i++) chunk[i] = (offset + i) % 251;
    chunks.push(chunk);
  }
  return chunks;
}

function collect(declared: number | undefined, chunks: Uint8Array[]): Uint8Array {
  const collector = new UploadCollector(declared);
  for (const chunk of chunks) collector.push(chunk);
  return collector.bytes();
}

const expected = (total: number) => Uint8Array.from({ length: total }, (_, i) => i % 251);

describe("UploadCollector", () => {
  it.each([
    ["no declared size", undefined, 3 * MB + 17],
    ["a small body (joined, not preallocated)", 4000, 3000],
    ["a large file that is most of the body", 3 * MB + 500, 3 * MB + 17],
    ["a small file in a large body", 3 * MB, 200_000],
    ["more bytes than the body declared", 2 * MB, 3 * MB + 17],
    ["an empty file", 2 * MB, 0],
  ])("keeps every byte in order: %s", (_, declared, total) => {
    const bytes = collect(declared, chunksOf(total, 65_536));
    expect(bytes.length).toBe(total);
    expect(Buffer.from(bytes).equals(Buffer.from(expected(total)))).toBe(true);
    // the bytes own their buffer from offset 0, so moving it to a worker moves nothing else
    expect(bytes.byteOffset).toBe(0);
  });

  it("holds a large file in the one preallocated buffer, without an exact-size copy, with room after it that holds only zeros", () => {
    const bytes = collect(3 * MB + 500, chunksOf(3 * MB + 17, 65_536));
    expect(bytes.buffer.byteLength).toBe(3 * MB + 500 + REVISION_ROOM_BYTES);
    // the room a signature's revisions are written into (lib/pdf/join-revisions.ts): nothing of the body is there
    expect(new Uint8Array(bytes.buffer, bytes.length).every((byte) => byte === 0)).toBe(true);
  });

  it("copies a file much smaller than the body to its own size (a clone then sends no more)", () => {
    const bytes = collect(3 * MB, chunksOf(200_000, 65_536));
    expect(bytes.buffer.byteLength).toBe(200_000);
  });
});
