import { timed } from "./request-timing";
import type { BlobStore, StagedUpload } from "@/lib/blob-store/blob-store";

/**
 * The store with every call charged to the "blob" stage of a profiled request (SERVER_TIMING=1),
 * so use cases need not time their own reads and writes. Only wrapped when profiling is on.
 */
export function timeBlobStore(store: BlobStore): BlobStore {
  return {
    put: (key, body, contentType) => timed("blob", () => store.put(key, body, contentType)),
    get: (key) => timed("blob", () => store.get(key)),
    open: (key) => timed("blob", () => store.open(key)),
    delete: (key) => timed("blob", () => store.delete(key)),
    ...(store.stageUpload ? { stageUpload: () => timeStagedUpload(store.stageUpload!()) } : {}),
  };
}

/** Its pieces are written as the upload arrives (the multipart stage); storing it is the "blob" stage. */
function timeStagedUpload(staged: StagedUpload): StagedUpload {
  return {
    write: (chunk) => staged.write(chunk),
    get size() {
      return staged.size;
    },
    store: (key, tail) => timed("blob", () => staged.store(key, tail)),
    discard: () => staged.discard(),
  };
}
