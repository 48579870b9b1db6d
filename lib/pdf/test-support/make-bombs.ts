import zlib from "node:zlib";

/**
 * Test-only hostile PDFs built in memory. Each is a well-formed one-page document plus the trap:
 * small on disk, huge when a reader inflates what it finds.
 */

const onePage = (extraTrailer = "") => ({
  objects: [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
  ],
  extraTrailer,
});

/**
 * `sections` xref streams chained by /Prev, each inflating to `megabytesEach` (the rows it needs
 * come first; the rest is zero padding a naive reader keeps in memory).
 */
export function xrefStreamChainBomb(sections: number, megabytesEach: number): Uint8Array {
  const { objects } = onePage();
  let text = "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n";
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  const push = (chunk: Buffer | string) => {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk, "latin1") : chunk;
    parts.push(buffer);
    text = "";
    return buffer.length;
  };
  let position = push(text);
  objects.forEach((body, i) => {
    offsets.push(position);
    position += push(`${i + 1} 0 obj\n${body}\nendobj\n`);
  });
  // rows for objects 0..3 (W [1 4 2]), then zero padding a naive reader inflates and keeps
  const rows = Buffer.alloc(4 * 7);
  offsets.forEach((offset, i) => {
    rows[(i + 1) * 7] = 1;
    rows.writeUInt32BE(offset, (i + 1) * 7 + 1);
  });
  // just under the 64 MB cap a single stream may inflate to, as the attack that found this did
  const body = zlib.deflateSync(Buffer.concat([rows, Buffer.alloc(megabytesEach * 1024 * 1024 - 4096)]), { level: 9 });
  let prev: number | undefined;
  for (let s = 0; s < sections; s++) {
    const num = 4 + s;
    const start = position;
    const dict = `<< /Type /XRef /W [1 4 2] /Index [0 4] /Size ${4 + sections} /Root 1 0 R /Filter /FlateDecode /Length ${body.length}${prev !== undefined ? ` /Prev ${prev}` : ""} >>`;
    position += push(`${num} 0 obj\n${dict}\nstream\n`);
    position += push(body);
    position += push("\nendstream\nendobj\n");
    prev = start;
  }
  push(`startxref\n${prev}\n%%EOF\n`);
  return new Uint8Array(Buffer.concat(parts));
}

/** One object stream that inflates to `megabytes`, holding the page tree. */
export function objectStreamBomb(megabytes: number): Uint8Array {
  const header = "2 0 3 60 ";
  const bodies = "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".padEnd(60, " ") + "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>";
  const raw = Buffer.concat([Buffer.from(header + bodies, "latin1"), Buffer.alloc(megabytes * 1024 * 1024, 0x20)]);
  const stream = zlib.deflateSync(raw, { level: 9 });
  const parts: Buffer[] = [];
  let position = 0;
  const push = (chunk: Buffer | string) => {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk, "latin1") : chunk;
    parts.push(buffer);
    position += buffer.length;
  };
  push("%PDF-1.7\n");
  const catalog = position;
  push("1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n");
  const objStm = position;
  push(`4 0 obj\n<< /Type /ObjStm /N 2 /First ${header.length} /Filter /FlateDecode /Length ${stream.length} >>\nstream\n`);
  push(stream);
  push("\nendstream\nendobj\n");
  const xref = position;
  const rows = Buffer.alloc(6 * 7);
  const row = (i: number, type: number, a: number, b: number) => {
    rows[i * 7] = type;
    rows.writeUInt32BE(a, i * 7 + 1);
    rows.writeUInt16BE(b, i * 7 + 5);
  };
  row(0, 0, 0, 0xffff);
  row(1, 1, catalog, 0);
  row(2, 2, 4, 0);
  row(3, 2, 4, 1);
  row(4, 1, objStm, 0);
  row(5, 1, xref, 0);
  push(`5 0 obj\n<< /Type /XRef /W [1 4 2] /Size 6 /Root 1 0 R /Length ${rows.length} >>\nstream\n`);
  push(rows);
  push(`\nendstream\nendobj\nstartxref\n${xref}\n%%EOF\n`);
  return new Uint8Array(Buffer.concat(parts));
}
