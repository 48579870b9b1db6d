import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { fixturePath } from "@/test/fixtures-dir";

/**
 * The hostile PDFs tests and benchmarks feed the engine: the committed ones in test/fixtures/pdfs/hostile,
 * plus the 1.1 GB flate bomb, which is made here (1 MB of compressed spaces is not worth a commit; the
 * recipe is the collection's make.sh: one page whose content stream inflates to 1,100,000,000 spaces).
 */
const GENERATED: Record<string, () => Buffer> = {
  "gen-flate-bomb-1.1gb.pdf": () => onePage("/Filter/FlateDecode", deflateRepeated(0x20, 1_100_000_000)),
};

export function hostileFixtureNames(): string[] {
  const committed = fs.readdirSync(fixturePath("pdfs/hostile")).filter((name) => name.endsWith(".pdf"));
  return [...committed, ...Object.keys(GENERATED)].sort();
}

export function hostileFixturePath(name: string): string {
  const make = GENERATED[name];
  if (!make) return fixturePath("pdfs/hostile", name);
  const file = path.join(os.tmpdir(), `fv-hostile-v1-${name}`);
  if (!fs.existsSync(file)) {
    fs.writeFileSync(`${file}.${process.pid}`, make());
    fs.renameSync(`${file}.${process.pid}`, file); // concurrent workers: the last identical copy wins
  }
  return file;
}

/**
 * A zlib stream of `total` copies of one byte without holding them: each 16 MB block is deflated on its
 * own and ends in a sync flush (no final bit), so the blocks concatenate into one valid raw deflate
 * stream; the same block compresses to the same bytes, so it is compressed once and repeated.
 */
function deflateRepeated(byte: number, total: number): Buffer {
  const BLOCK = 1 << 24;
  const flushed = (n: number) => zlib.deflateRawSync(Buffer.alloc(n, byte), { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const full = flushed(BLOCK);
  const parts: Buffer[] = [Buffer.from([0x78, 0xda])];
  for (let n = 0; n < Math.floor(total / BLOCK); n++) parts.push(full);
  if (total % BLOCK) parts.push(flushed(total % BLOCK));
  parts.push(zlib.deflateRawSync(Buffer.alloc(0))); // the final, empty block
  // Adler-32 of n equal bytes c: A = 1 + n·c, B = n + c·n(n+1)/2 (mod 65521)
  const [n, c, m] = [BigInt(total), BigInt(byte), 65521n];
  const a = (1n + n * c) % m;
  const b = (n + (c * n * (n + 1n)) / 2n) % m;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(Number((b << 16n) | a));
  parts.push(adler);
  return Buffer.concat(parts);
}

function onePage(filter: string, data: Buffer): Buffer {
  const objects = [
    Buffer.from("<</Type/Catalog/Pages 2 0 R>>"),
    Buffer.from("<</Type/Pages/Kids[3 0 R]/Count 1>>"),
    Buffer.from("<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Contents 4 0 R/Resources<<>>>>"),
    Buffer.concat([Buffer.from(`<<${filter}/Length ${data.length}>>\nstream\n`), data, Buffer.from("\nendstream")]),
  ];
  const parts = [Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  const offsets: number[] = [];
  let length = parts[0].length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from("\nendobj\n")]);
    parts.push(obj);
    length += obj.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)].join("");
  parts.push(Buffer.from(`${xref}trailer\n<</Size ${objects.length + 1}/Root 1 0 R>>\nstartxref\n${length}\n%%EOF\n`));
  return Buffer.concat(parts);
}
