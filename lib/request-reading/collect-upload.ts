/** Below this declared body size the chunks are simply joined: preallocation pays off for large files. */
const PREALLOCATE_FROM = 1024 * 1024;

/**
 * Gathers one uploaded file's bytes as they stream in. When the body's declared size is known, each
 * chunk is copied at once into one buffer of that size, so a large file is held once (never as its
 * chunks plus a joined copy plus a copy of that); otherwise the chunks are joined once at the end.
 * The bytes returned own their memory (offset 0, not Node's shared pool), so they may be moved to a
 * worker thread instead of copied.
 */
export class UploadCollector {
  private buffer: Uint8Array | undefined;
  private chunks: Uint8Array[] = [];
  private size = 0;

  /** `declaredBodyBytes`: the request's Content-Length (already checked against the limits), if any. */
  constructor(declaredBodyBytes?: number) {
    if (declaredBodyBytes !== undefined && declaredBodyBytes >= PREALLOCATE_FROM) {
      // zero-filled (no old memory in the tail) yet lazy: a large calloc is mapped, its pages touched as bytes arrive
      this.buffer = new Uint8Array(declaredBodyBytes);
    }
  }

  push(chunk: Uint8Array): void {
    if (this.buffer && this.size + chunk.length > this.buffer.length) {
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
    // the file is most of the body: keep the buffer (the unused tail is the rest of the body, at most the file's size)
    if (buffer && this.size * 2 >= buffer.length) return buffer.subarray(0, this.size);
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
