/**
 * Where uploaded PDFs, signed outputs, images and selfies live. Keys are opaque paths such as
 * `<organizationId>/stamp/<uuid>.pdf`; callers never touch files directly. Stores: files under
 * DATA_DIR (embedded), a PostgreSQL table, or an S3-compatible bucket (chosen in lib/runtime/services.ts).
 */
export interface BlobStore {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<Uint8Array | null>;
  /** The blob as a stream, for answers that pass it on without holding it (downloads). */
  open(key: string): Promise<OpenedBlob | null>;
  delete(key: string): Promise<void>;
  /** Starts writing an upload as it arrives, for a store that can keep it (files): see StagedUpload. */
  stageUpload?(): StagedUpload;
}

/**
 * An upload written to the store as it arrives, to be stored later followed by what a signature
 * appended (a signed PDF is its upload plus incremental revisions). On this project's VM, writing
 * 50 MB that userspace filled costs ~100-200 ms more than writing the socket's own buffers, which
 * the kernel filled (bench/results/2026-12-02-large-blob-stage.txt). The caller keeps the whole
 * output in memory, so a failed staging costs only a plain `put`.
 */
export interface StagedUpload {
  /** Queues the upload's next piece, in order. */
  write(chunk: Uint8Array): void;
  /** Bytes queued so far. */
  readonly size: number;
  /** Stores what was staged followed by `tail` under `key`, as `put` stores their concatenation; once. */
  store(key: string, tail: Uint8Array): Promise<void>;
  /** Drops what was staged unless it was stored; safe to call again. */
  discard(): Promise<void>;
}

export type OpenedBlob = { stream: ReadableStream<Uint8Array>; size: number | null };

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

export function assertBlobKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.length > 512) throw new Error(`invalid blob key: ${key}`);
}
