import { describe, expect, it } from "vitest";
import { pdfRangeResponse } from "./pdf-range-response";

const bytes = new Uint8Array(Buffer.from("%PDF-1.7 0123456789 %%EOF", "latin1"));
const ask = (range?: string) => pdfRangeResponse(new Request("http://localhost/doc", { headers: range ? { range } : {} }), bytes, { filename: "contrato ñ.pdf", download: false });
const text = async (response: Response) => Buffer.from(await response.arrayBuffer()).toString("latin1");

describe("pdfRangeResponse", () => {
  it("answers the whole file without a range, inline, private", async () => {
    const response = ask();
    expect(response.status).toBe(200);
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("content-disposition")).toBe(`inline; filename="contrato _.pdf"; filename*=UTF-8''contrato%20%C3%B1.pdf`);
    expect(await text(response)).toBe("%PDF-1.7 0123456789 %%EOF");
  });

  it("answers a range, a suffix and an open end with 206 and their bytes; past the end 416", async () => {
    const first = ask("bytes=0-7");
    expect(first.status).toBe(206);
    expect(first.headers.get("content-range")).toBe(`bytes 0-7/${bytes.length}`);
    expect(await text(first)).toBe("%PDF-1.7");
    expect(await text(ask("bytes=-5"))).toBe("%%EOF");
    expect(await text(ask("bytes=9-"))).toBe("0123456789 %%EOF");
    const past = ask(`bytes=${bytes.length}-`);
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${bytes.length}`);
  });
});
