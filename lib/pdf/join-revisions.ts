/**
 * A document followed by the incremental revisions written after it. Copying a 48 MB document to add
 * a 30 KB revision touches 48 MB of fresh memory (150-200 ms on this project's 2-core VM, whose page
 * faults are costly; issue 40), twice per signature (the signature, then the DSS). When the caller
 * owns the memory after `bytes` in its buffer (an upload read into a buffer sized with room to spare,
 * moved to the worker: see collect-upload.ts), the revisions are written there instead, and the
 * answer is a longer view of the same buffer. `bytes` itself is never changed.
 */
export function joinRevisions(bytes: Uint8Array, revisions: readonly Uint8Array[], { tailIsFree = false }: { tailIsFree?: boolean } = {}): Uint8Array {
  const length = revisions.reduce((total, revision) => total + revision.length, bytes.length);
  const fitsAfter = tailIsFree && bytes.buffer instanceof ArrayBuffer && bytes.byteOffset + length <= bytes.buffer.byteLength;
  const joined = fitsAfter ? new Uint8Array(bytes.buffer, bytes.byteOffset, length) : new Uint8Array(length);
  if (!fitsAfter) joined.set(bytes, 0);
  let at = bytes.length;
  for (const revision of revisions) {
    joined.set(revision, at);
    at += revision.length;
  }
  return joined;
}
