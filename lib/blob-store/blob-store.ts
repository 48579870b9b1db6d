/**
 * Where uploaded PDFs, signed outputs, images and selfies live. Keys are opaque paths such as
 * `<organizationId>/stamp/<uuid>.pdf`; callers never touch files directly, so an S3-compatible
 * store can be added by implementing this interface.
 */
export interface BlobStore {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<Uint8Array | null>;
  delete(key: string): Promise<void>;
}

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

export function assertBlobKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.length > 512) throw new Error(`invalid blob key: ${key}`);
}
