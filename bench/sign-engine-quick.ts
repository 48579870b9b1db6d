// Quick figures for the lib/pdf engine (not a test; never asserts on time).
// usage: npx tsx bench/sign-engine-quick.ts FILE.pdf [more.pdf ...]
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { signPdf } from "@/lib/pdf/sign-pdf";

const fakeCms = async () => new Uint8Array(3000).fill(0x30);
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  for (const file of process.argv.slice(2)) {
    const bytes = new Uint8Array(readFileSync(file));
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const shaRuns: number[] = [];
    const signRuns: number[] = [];
    for (let i = 0; i < 5; i++) {
      let t = performance.now();
      createHash("sha256").update(bytes).digest();
      shaRuns.push(performance.now() - t);
      t = performance.now();
      const out = await signPdf(bytes, { sign: fakeCms });
      signRuns.push(performance.now() - t);
      peak = Math.max(peak, process.memoryUsage().rss);
      if (out.length <= bytes.length) throw new Error("no output");
    }
    clearInterval(sampler);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(
      `${file}: ${mb(bytes.length)}  sha256 ${median(shaRuns).toFixed(1)} ms  signPdf ${median(signRuns).toFixed(1)} ms ` +
        `(x${(median(signRuns) / median(shaRuns)).toFixed(2)})  rss before ${mb(rssBefore)} peak ${mb(peak)} (+${mb(peak - rssBefore)})`,
    );
  }
}

void main();
