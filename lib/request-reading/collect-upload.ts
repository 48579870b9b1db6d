/** Below this declared body size the chunks are simply joined: preallocation pays off for large files. */
export const PREALLOCATE_FROM = 1024 * 1024;

/**
 * Room left after a preallocated file, for the revisions a signature appends in place of copying the
 * whole document (lib/pdf/join-revisions.ts): a signature with its stamp and the DSS take tens to a
 * few hundred KB. Unused, it costs no memory: its pages are never touched.
 */
export const REVISION_ROOM_BYTES = 1024 * 1024;

/**
 * Gathers one uploaded file's bytes as they stream in. When the body's declared size is known, each
 * chunk is copied at once into one buffer of that size, so a large file is held once (never as its
 * chunks plus a joined copy plus a copy of that); otherwise the chunks are joined once at the end.
 * The bytes returned own their memory (offset 0, not Node's shared pool), so they may be moved to a
 * worker thread instead of copied.
 */
export class UploadCollector {
  private buffer: Uint8Array | undefined;
  private declared = 0;
  private chunks: Uint8Array[] = [];
  private size = 0;

  /** `declaredBodyBytes`: the request's Content-Length (already checked against the limits), if any. */
  constructor(declaredBodyBytes?: number) {
    if (declaredBodyBytes !== undefined && declaredBodyBytes >= PREALLOCATE_FROM) {
      // zero-filled (no old memory in the tail) yet lazy: a large calloc is mapped, its pages touched as bytes arrive
      this.buffer = new Uint8Array(declaredBodyBytes + REVISION_ROOM_BYTES);
      this.declared = declaredBodyBytes;
    }
  }

  push(chunk: Uint8Array): void {
    if (this.buffer && this.size + chunk.length > this.declared) {
      // more than the body declared (a lying client): fall back to joining chunks
      this.chunks.push(this.buffer.slice(0, this.size));
      this.buffer = undefined;
    }
    if (this.buffer) this.buffer.set(chunk, this.size);
    else this.chunks.push(chunk);
    this.size += chunk.length;
  }

  bytes(): Uint8Array {
    const buffer = this.buffer;
    // the file is most of the body: keep the buffer (its unused tail is the rest of the body, at most
    // the file's size, and the revision room; it was never written, so it holds zeros)
    if (buffer && this.size * 2 >= this.declared) return buffer.subarray(0, this.size);
    const exact = new Uint8Array(this.size);
    if (buffer) exact.set(buffer.subarray(0, this.size));
    let offset = 0;
    for (const chunk of this.chunks) {
      exact.set(chunk, offset);
      offset += chunk.length;
    }
    return exact;
  }
}
