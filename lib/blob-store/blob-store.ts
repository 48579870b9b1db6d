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
}

export type OpenedBlob = { stream: ReadableStream<Uint8Array>; size: number | null };

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

export function assertBlobKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.length > 512) throw new Error(`invalid blob key: ${key}`);
}
