import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { AppError } from "@/lib/errors";
import type { StagedUpload } from "@/lib/blob-store/blob-store";
import { PREALLOCATE_FROM, UploadCollector } from "./collect-upload";
import { readRequestBytes } from "./read-request-bytes";

/** `staged`: the same bytes, written to the blob store as they arrived (`stage` below); the caller stores or discards it. */
export type UploadedFile = { field: string; filename: string; contentType: string; bytes: Uint8Array; staged?: StagedUpload };
export type MultipartBody = { fields: Record<string, string>; files: UploadedFile[] };

export type MultipartLimits = { maxFileBytes: number; maxFiles?: number; maxFields?: number };

/**
 * Files of these fields, in a body declared at least PREALLOCATE_FROM, are also written to `start()`'s
 * staged upload as they arrive. Below it the upload has no room after it (collect-upload.ts), so the
 * output never extends it and a staged copy would only be dropped.
 */
export type MultipartStaging = { fields: readonly string[]; start: () => StagedUpload };

const FIELD_BYTES = 1024 * 1024;
/** A body declared this small is read whole and parsed in one call: no stream plumbing per request. */
const WHOLE_BODY_BYTES = 64 * 1024;

/**
 * Streams a multipart/form-data body with hard limits. A declared Content-Length over the limit is
 * refused before reading anything; an undeclared one is cut off as soon as a file passes the
 * limit, so an oversized upload is never buffered whole. A file's bytes are held once
 * (`UploadCollector`) and own their memory. A body declared at most 64 KB (a .tsq, a form) is read
 * whole first: streaming it through Node and web streams cost more than parsing it.
 */
export async function parseMultipart(request: Request, limits: MultipartLimits, staging?: MultipartStaging): Promise<MultipartBody> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "se esperaba multipart/form-data", "content-type");
  }
  const maxFiles = limits.maxFiles ?? 20;
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  const maxBody = limits.maxFileBytes * Math.min(maxFiles, 4) + FIELD_BYTES * 4;
  if (Number.isFinite(declared) && declared > maxBody) throw tooLarge(limits.maxFileBytes);
  if (!request.body) throw new AppError("VALIDATION", "el cuerpo de la solicitud está vacío", "body");

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      limits: { fileSize: limits.maxFileBytes, files: maxFiles, fields: limits.maxFields ?? 100, fieldSize: FIELD_BYTES },
      defParamCharset: "utf8",
    });
  } catch {
    throw new AppError("VALIDATION", "cuerpo multipart inválido", "content-type");
  }
  const whole = Number.isFinite(declared) && declared <= WHOLE_BODY_BYTES ? await readWholeBody(request, declared) : undefined;
  const source = whole ? undefined : Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>);
  // the socket's own buffers go to disk as they come (blob-store.ts says why); a small body is not worth a file
  const stageFor = (field: string) => (staging && source && declared >= PREALLOCATE_FROM && staging.fields.includes(field) ? staging.start() : undefined);

  return new Promise<MultipartBody>((resolve, reject) => {
    const fields: Record<string, string> = {};
    const files: UploadedFile[] = [];
    const staged: StagedUpload[] = [];
    let failed = false;
    const fail = (error: AppError) => {
      if (failed) return;
      failed = true;
      source?.unpipe(parser);
      source?.destroy();
      // the caller never sees the files of a refused body: their staged copies are dropped here
      void Promise.all(staged.map((upload) => upload.discard())).catch(() => undefined);
      reject(error);
    };
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) return fail(new AppError("PAYLOAD_TOO_LARGE", `el campo ${name} es demasiado largo`, name));
      fields[name] = value;
    });
    parser.on("file", (name, stream, info) => {
      const collector = new UploadCollector(Number.isFinite(declared) ? Math.min(declared, limits.maxFileBytes) : undefined);
      const stagedFile = failed ? undefined : stageFor(name);
      if (stagedFile) staged.push(stagedFile);
      stream.on("data", (chunk: Buffer) => {
        collector.push(chunk);
        stagedFile?.write(chunk);
      });
      stream.on("limit", () => fail(tooLarge(limits.maxFileBytes, name)));
      // A truncated body errors the file stream too; without a listener that would crash the process.
      stream.on("error", () => fail(new AppError("VALIDATION", "cuerpo multipart inválido o incompleto", name)));
      stream.on("end", () => {
        if (failed) return;
        files.push({ field: name, filename: info.filename ?? "", contentType: info.mimeType, bytes: collector.bytes(), ...(stagedFile ? { staged: stagedFile } : {}) });
      });
    });
    parser.on("filesLimit", () => fail(new AppError("VALIDATION", `se admiten como máximo ${maxFiles} archivos`, "files")));
    parser.on("fieldsLimit", () => fail(new AppError("VALIDATION", "demasiados campos", "fields")));
    parser.on("error", () => fail(new AppError("VALIDATION", "cuerpo multipart inválido o incompleto", "body")));
    parser.on("close", () => {
      if (!failed) resolve({ fields, files });
    });
    if (!source) return parser.end(whole);
    source.on("error", () => fail(new AppError("VALIDATION", "la carga se interrumpió", "body")));
    // the aggregate cap counts the bytes that arrive, so a chunked body without Content-Length is cut off too
    let received = 0;
    source.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBody) fail(tooLarge(limits.maxFileBytes));
    });
    source.pipe(parser);
  });
}

/** The whole of a small body, no more than it declared; a body cut off on the way is the client's error. */
async function readWholeBody(request: Request, declared: number): Promise<Buffer> {
  try {
    const bytes = await readRequestBytes(request, declared);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("VALIDATION", "la carga se interrumpió", "body");
  }
}

function tooLarge(maxFileBytes: number, field?: string) {
  const mb = Math.round((maxFileBytes / 1024 / 1024) * 10) / 10;
  return new AppError("PAYLOAD_TOO_LARGE", `el archivo supera el límite de ${mb} MB`, field ?? "file");
}
