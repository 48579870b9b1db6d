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
});
