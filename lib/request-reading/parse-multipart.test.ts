import { describe, expect, it } from "vitest";
import { parseMultipart } from "./parse-multipart";
import { AppError } from "@/lib/errors";

function multipartRequest(parts: { name: string; value: string | Uint8Array; filename?: string }[], headers: Record<string, string> = {}) {
  const form = new FormData();
  for (const part of parts) {
    if (typeof part.value === "string" && !part.filename) form.append(part.name, part.value);
    else form.append(part.name, new Blob([part.value as BlobPart], { type: "application/pdf" }), part.filename ?? "file.bin");
  }
  return new Request("http://x/upload", { method: "POST", body: form, headers });
}

describe("parseMultipart", () => {
  it("returns fields and files", async () => {
    const request = multipartRequest([
      { name: "names", value: "José Ñúñez" },
      { name: "pdf_file", value: new Uint8Array([37, 80, 68, 70]), filename: "contrato.pdf" },
    ]);
    const body = await parseMultipart(request, { maxFileBytes: 1024 });
    expect(body.fields).toEqual({ names: "José Ñúñez" });
    expect(body.files).toHaveLength(1);
    expect(body.files[0]).toMatchObject({ field: "pdf_file", filename: "contrato.pdf" });
    expect(Array.from(body.files[0].bytes)).toEqual([37, 80, 68, 70]);
  });

  it("refuses a file over the limit with PAYLOAD_TOO_LARGE naming the field", async () => {
    const request = multipartRequest([{ name: "pdf_file", value: new Uint8Array(5000), filename: "big.pdf" }]);
    const error = await parseMultipart(request, { maxFileBytes: 1000 }).catch((e) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(error.field).toBe("pdf_file");
  });

  it("refuses a declared Content-Length over the limit before reading", async () => {
    const request = new Request("http://x/upload", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(1024 * 1024 * 1024) },
      body: new ReadableStream({ pull: () => { throw new Error("must not be read"); } }),
      duplex: "half",
    } as RequestInit);
    const error = await parseMultipart(request, { maxFileBytes: 1000 }).catch((e) => e);
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("refuses a body that is not multipart", async () => {
    const request = new Request("http://x/upload", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    const error = await parseMultipart(request, { maxFileBytes: 1000 }).catch((e) => e);
    expect(error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("refuses a truncated multipart body", async () => {
    const request = new Request("http://x/upload", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=abc" },
      body: '--abc\r\nContent-Disposition: form-data; name="pdf_file"; filename="a.pdf"\r\n\r\n%PDF-1.4 trunc',
    });
    const error = await parseMultipart(request, { maxFileBytes: 1000 }).catch((e) => e);
    expect(error.code).toBe("VALIDATION");
  });

  it("reads a large file with a declared Content-Length byte for byte", async () => {
    const bytes = Uint8Array.from({ length: 3 * 1024 * 1024 + 123 }, (_, i) => (i * 7) % 256);
    const form = new FormData();
    form.append("names", "Ana");
    form.append("pdf_file", new Blob([bytes as BlobPart], { type: "application/pdf" }), "big.pdf");
    const encoded = new Response(form);
    const body = new Uint8Array(await encoded.arrayBuffer());
    const request = new Request("http://x/upload", { method: "POST", body, headers: { "content-type": encoded.headers.get("content-type")!, "content-length": String(body.length) } });
    const parsed = await parseMultipart(request, { maxFileBytes: 4 * 1024 * 1024 });
    expect(parsed.fields).toEqual({ names: "Ana" });
    expect(Buffer.from(parsed.files[0].bytes).equals(Buffer.from(bytes))).toBe(true);
  });

  describe("staging a file of a large body as it arrives", () => {
    type Recorded = { chunks: Uint8Array[]; discarded: boolean };
    const recorded: Recorded[] = [];
    const staging = {
      fields: ["pdf_file"],
      start: () => {
        const record: Recorded = { chunks: [], discarded: false };
        recorded.push(record);
        return {
          write: (chunk: Uint8Array) => void record.chunks.push(chunk),
          get size() {
            return record.chunks.reduce((total, chunk) => total + chunk.length, 0);
          },
          store: async () => {},
          discard: async () => void (record.discarded = true),
        };
      },
    };
    const largeRequest = async (parts: [string, Uint8Array][], declaredExtra = 0) => {
      const form = new FormData();
      for (const [name, value] of parts) form.append(name, new Blob([value as BlobPart]), `${name}.bin`);
      const encoded = new Response(form);
      const body = new Uint8Array(await encoded.arrayBuffer());
      return new Request("http://x/upload", { method: "POST", body, headers: { "content-type": encoded.headers.get("content-type")!, "content-length": String(body.length + declaredExtra) } });
    };

    it("stages exactly the named field's bytes, in order, and gives the staged copy with the file", async () => {
      recorded.length = 0;
      const pdf = Uint8Array.from({ length: 2 * 1024 * 1024 + 17 }, (_, i) => (i * 11) % 256);
      const parsed = await parseMultipart(await largeRequest([["pdf_file", pdf], ["image", new Uint8Array(5000).fill(1)]]), { maxFileBytes: 4 * 1024 * 1024 }, staging);
      expect(recorded).toHaveLength(1);
      expect(Buffer.concat(recorded[0].chunks).equals(Buffer.from(pdf))).toBe(true);
      expect(parsed.files.find((f) => f.field === "pdf_file")!.staged!.size).toBe(pdf.length);
      expect(parsed.files.find((f) => f.field === "image")!.staged).toBeUndefined();
    });

    it("stages nothing in a body under 1 MB", async () => {
      recorded.length = 0;
      const parsed = await parseMultipart(await largeRequest([["pdf_file", new Uint8Array(200_000)]]), { maxFileBytes: 4 * 1024 * 1024 }, staging);
      expect(recorded).toHaveLength(0);
      expect(parsed.files[0].staged).toBeUndefined();
    });

    it("drops the staged copy of a refused body (a file over its limit)", async () => {
      recorded.length = 0;
      const error = await parseMultipart(await largeRequest([["pdf_file", new Uint8Array(3 * 1024 * 1024)]]), { maxFileBytes: 2 * 1024 * 1024 }, staging).catch((e) => e);
      expect(error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", field: "pdf_file" });
      expect(recorded).toHaveLength(1);
      await expect.poll(() => recorded[0].discarded).toBe(true);
    });
  });

  describe("a body declared at most 64 KB, read whole", () => {
    const encode = async (parts: { name: string; value: string | Uint8Array; filename?: string }[]) => {
      const request = multipartRequest(parts);
      return { body: new Uint8Array(await request.arrayBuffer()), contentType: request.headers.get("content-type")! };
    };
    const chunkedRequest = (chunks: Uint8Array[], headers: Record<string, string>, failAtEnd = false) =>
      new Request("http://x/upload", {
        method: "POST",
        headers,
        body: new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(chunk);
            if (failAtEnd) controller.error(new Error("connection reset"));
            else controller.close();
          },
        }),
        duplex: "half",
      } as RequestInit);

    it("returns the same fields and file bytes as the streamed path, from a body that arrives in pieces", async () => {
      const tsq = Uint8Array.from({ length: 59 }, (_, i) => (i * 13) % 256);
      const { body, contentType } = await encode([{ name: "note", value: "sello ñ" }, { name: "tsq_file", value: tsq, filename: "q.tsq" }]);
      const pieces = [body.subarray(0, 7), body.subarray(7, 100), body.subarray(100)];
      const parsed = await parseMultipart(chunkedRequest(pieces, { "content-type": contentType, "content-length": String(body.length) }), { maxFileBytes: 64 * 1024, maxFiles: 1 });
      expect(parsed.fields).toEqual({ note: "sello ñ" });
      expect(parsed.files).toHaveLength(1);
      expect(parsed.files[0].field).toBe("tsq_file");
      expect(Buffer.from(parsed.files[0].bytes).equals(Buffer.from(tsq))).toBe(true);
    });

    it("still refuses a file over its own limit, naming the field", async () => {
      const { body, contentType } = await encode([{ name: "tsq_file", value: new Uint8Array(5000), filename: "q.tsq" }]);
      const error = await parseMultipart(chunkedRequest([body], { "content-type": contentType, "content-length": String(body.length) }), { maxFileBytes: 1000 }).catch((e) => e);
      expect(error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", field: "tsq_file" });
    });

    it("refuses a body longer than it declared, and one cut off on the way, with a clear error", async () => {
      const { body, contentType } = await encode([{ name: "tsq_file", value: new Uint8Array(300), filename: "q.tsq" }]);
      const longer = await parseMultipart(chunkedRequest([body], { "content-type": contentType, "content-length": String(body.length - 50) }), { maxFileBytes: 1000 }).catch((e) => e);
      expect(longer).toMatchObject({ code: "PAYLOAD_TOO_LARGE", field: "body" });
      const cut = await parseMultipart(chunkedRequest([body.subarray(0, 100)], { "content-type": contentType, "content-length": String(body.length) }, true), { maxFileBytes: 1000 }).catch((e) => e);
      expect(cut).toMatchObject({ code: "VALIDATION", field: "body" });
      const short = await parseMultipart(chunkedRequest([body.subarray(0, 100)], { "content-type": contentType, "content-length": String(body.length) }), { maxFileBytes: 1000 }).catch((e) => e);
      expect(short).toMatchObject({ code: "VALIDATION" });
    });
  });
});
