// The large inputs of the benchmarks, built by qpdf from the repository's fixtures once and cached in
// bench/out/ (gitignored): bench/api.ts, bench/sign.ts, bench/hostile.ts and the large-PDF benches share them.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fixturePath } from "@/test/fixtures-dir";

const OUT = path.resolve(__dirname, "out");
const FIXTURES = fixturePath("pdfs/valid");

/** Builds `name` in bench/out/ with qpdf through a temporary name (a run stopped half-way leaves no partial file), unless it is there. */
function cachedQpdf(name: string, what: string, args: (tmp: string) => string[]): string {
  const file = path.join(OUT, name);
  if (existsSync(file) && statSync(file).size > 0) return file;
  // a first run builds for several seconds: say so, in the benches' own log format
  process.stderr.write(`[bench] building ${what} with qpdf\n`);
  mkdirSync(OUT, { recursive: true });
  const tmp = `${file}.tmp-${process.pid}.pdf`;
  execFileSync("qpdf", args(tmp), { stdio: ["ignore", "ignore", "pipe"] });
  renameSync(tmp, file);
  return file;
}

/** ~50 MB: distinct copies of a 1 MB fixture (qpdf shares the objects of a file listed twice). */
export function ensureLargeInput(): string {
  const source = path.join(FIXTURES, "classic-xref-pdftex-tracemonkey.pdf");
  const copies = Math.ceil(50_000_000 / statSync(source).size);
  const dir = path.join(OUT, `copies-${process.pid}`);
  try {
    return cachedQpdf("input-50mb.pdf", `the ~50 MB input (${copies} copies of ${path.basename(source)})`, (tmp) => {
      mkdirSync(dir, { recursive: true });
      const pages: string[] = [];
      for (let i = 0; i < copies; i++) {
        const copy = path.join(dir, `c${i}.pdf`);
        copyFileSync(source, copy);
        pages.push(copy, "1-z");
      }
      return ["--empty", "--pages", ...pages, "--", tmp];
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** 14 + 55 + 23 + 8 = 100 pages from three producers (pdfTeX, OpenOffice, HTMLDOC). */
export function ensureHundredPageInput(): string {
  return cachedQpdf("input-100-pages.pdf", "the 100-page input", (tmp) => [
    "--empty", "--pages",
    path.join(FIXTURES, "classic-xref-pdftex-tracemonkey.pdf"), "1-z",
    path.join(FIXTURES, "openoffice-55pages-links.pdf"), "1-z",
    path.join(FIXTURES, "pdf13-htmldoc-23pages.pdf"), "1-z",
    path.join(FIXTURES, "pdftex-libtasn1-manual.pdf"), "1-8",
    "--", tmp,
  ]);
}
