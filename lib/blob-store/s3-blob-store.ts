import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import { assertBlobKey, type BlobStore, type OpenedBlob } from "./blob-store";

export type S3Settings = { endpoint?: string; bucket: string; region: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean; prefix?: string };

/** A missing key; a missing bucket is a configuration error and must not read as "no such document". */
const isMissing = (error: unknown) =>
  error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404 && error.name !== "NoSuchBucket");

/**
 * Blobs in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2…), so instances keep no files of their
 * own and the database holds no blob bodies. Uploads send the caller's bytes as they are; reads
 * either stream (`open`) or fill one buffer of the announced length, never a second copy.
 */
export function createS3BlobStore(settings: S3Settings): BlobStore {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.accessKeyId && settings.secretAccessKey ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } : undefined,
  });
  const keyOf = (key: string) => {
    assertBlobKey(key);
    return settings.prefix ? `${settings.prefix}/${key}` : key;
  };
  const open = async (key: string): Promise<OpenedBlob | null> => {
    try {
      const object = await client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: keyOf(key) }));
      if (!object.Body) return null;
      return { stream: object.Body.transformToWebStream() as ReadableStream<Uint8Array>, size: object.ContentLength ?? null };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  };
  return {
    async put(key, body, contentType) {
      await client.send(new PutObjectCommand({ Bucket: settings.bucket, Key: keyOf(key), Body: body, ContentType: contentType, ContentLength: body.byteLength }));
    },
    async get(key) {
      const opened = await open(key);
      return opened ? readAll(opened) : null;
    },
    open,
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: keyOf(key) }));
    },
  };
}

/** Reads a blob into one buffer of its announced size (chunks are copied in once, not collected and joined). */
export async function readAll(opened: OpenedBlob): Promise<Uint8Array> {
  const reader = opened.stream.getReader();
  if (opened.size === null) {
    const chunks: Uint8Array[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    return new Uint8Array(Buffer.concat(chunks));
  }
  const bytes = new Uint8Array(opened.size);
  let offset = 0;
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    if (offset + next.value.byteLength > bytes.byteLength) throw new Error("blob longer than its announced size");
    bytes.set(next.value, offset);
    offset += next.value.byteLength;
  }
  if (offset !== bytes.byteLength) throw new Error("blob shorter than its announced size");
  return bytes;
}
