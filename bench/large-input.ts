// The ~50 MB input of the benchmarks (distinct copies of a 1 MB fixture joined by qpdf), built once
// and cached in bench/out/ (gitignored); bench/sign.ts builds the same file.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fixturePath } from "@/test/fixtures-dir";

const OUT = path.resolve(__dirname, "out");
const SOURCE = fixturePath("pdfs/valid/classic-xref-pdftex-tracemonkey.pdf");

export function ensureLargeInput(): string {
  const file = path.join(OUT, "input-50mb.pdf");
  if (existsSync(file)) return file;
  const copies = Math.ceil(50_000_000 / statSync(SOURCE).size);
  const dir = path.join(OUT, `copies-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const pages: string[] = [];
  for (let i = 0; i < copies; i++) {
    const copy = path.join(dir, `c${i}.pdf`);
    copyFileSync(SOURCE, copy);
    pages.push(copy, "1-z");
  }
  try {
    const tmp = `${file}.tmp-${process.pid}`;
    execFileSync("qpdf", ["--empty", "--pages", ...pages, "--", tmp]);
    renameSync(tmp, file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return file;
}
