// `npx tsx bench/large-pdf-checks.ts`: in-process CPU of the checks every unsigned upload goes
// through (inspectPdf, findCorruptObject) on the ~50 MB benchmark input, six rounds. Figures only.
import fs from "node:fs";
import { inspectPdf } from "@/lib/pdf/inspect-pdf";
import { findCorruptObject } from "@/lib/pdf/find-corrupt-object";
import { openLazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { ensureLargeInput } from "./large-input";

function main() {
  const bytes = new Uint8Array(fs.readFileSync(ensureLargeInput()));
  for (let i = 0; i < 6; i++) {
    let t = performance.now();
    inspectPdf(bytes);
    const a = performance.now() - t;
    t = performance.now();
    findCorruptObject(bytes);
    const b = performance.now() - t;
    t = performance.now();
    const pdf = openLazyPdf(bytes);
    let n = 0;
    for (const s of pdf.sections) for (const _ of s.entries()) n++;
    const c = performance.now() - t;
    console.log(`inspect ${a.toFixed(0)} ms, findCorruptObject ${b.toFixed(0)} ms, open+count ${c.toFixed(0)} ms (${n} entries)`);
  }
}
main();
