// `npx tsx bench/mutated-signing.ts [--dir DIR] [--only NAME] [--per N]`: issue 41's "damaged files
// that readers open". Makes deterministic byte mutations of every valid fixture (flipped, dropped and
// inserted bytes; truncated and shifted xref entries), keeps those `qpdf --check` repairs with
// warnings only (exit 3), and runs signPDF's signing path (acceptPdf with repairPdf, then signPdf) on
// each. Counts: signed (and the output passes qpdf --check and pdfsig), refused by design (damaged
// and already signed), refused as damaged, other. Prints one line per file and the totals; asserts
// nothing. Corpus: test/fixtures/pdfs/valid when present, else the shared collection (hand-run only).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { acceptPdf } from "../lib/pdf/accept-pdf";
import { PdfError } from "../lib/pdf/errors";
import { repairPdf } from "../lib/pdf/repair-pdf";
import { signPdf } from "../lib/pdf/sign-pdf";
import { createTestPki } from "../lib/pdf/test-support/create-test-pki";

const arg = (name: string) => (process.argv.indexOf(name) > 0 ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const LOCAL = path.join(__dirname, "..", "test", "fixtures", "pdfs", "valid");
const DIR = arg("--dir") ?? LOCAL;
const PER = Number(arg("--per") ?? 3);

/** mulberry32: the same mutations on every run for a given file and kind. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function seedOf(text: string): number {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

type Mutation = { kind: string; apply: (bytes: Buffer, rnd: () => number) => Buffer | undefined };

// byte damage lands in the structure (outside stream data), where a reader has to cope with it
function structuralOffset(bytes: Buffer, rnd: () => number): number {
  const text = bytes.toString("latin1");
  const streams: Array<[number, number]> = [];
  const re = /stream\r?\n/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const end = text.indexOf("endstream", m.index);
    if (end < 0) break;
    streams.push([m.index + m[0].length, end]);
    re.lastIndex = end;
  }
  for (let tries = 0; tries < 1000; tries++) {
    const at = Math.floor(rnd() * bytes.length);
    if (!streams.some(([s, e]) => at >= s && at < e)) return at;
  }
  return Math.floor(rnd() * bytes.length);
}

function xrefEntries(text: string): Array<{ at: number; offset: number }> {
  const table = text.lastIndexOf("\nxref");
  if (table < 0) return [];
  const trailer = text.indexOf("trailer", table);
  const out: Array<{ at: number; offset: number }> = [];
  const re = /(\d{10}) \d{5} n/g;
  re.lastIndex = table;
  for (let m = re.exec(text); m && m.index < trailer; m = re.exec(text)) out.push({ at: m.index, offset: Number(m[1]) });
  return out;
}

const mutations: Mutation[] = [
  { kind: "flip", apply: (b, rnd) => { const out = Buffer.from(b); const at = structuralOffset(b, rnd); out[at] ^= 1 << Math.floor(rnd() * 8); return out; } },
  { kind: "drop", apply: (b, rnd) => { const at = structuralOffset(b, rnd); return Buffer.concat([b.subarray(0, at), b.subarray(at + 1 + Math.floor(rnd() * 4))]); } },
  { kind: "insert", apply: (b, rnd) => { const at = structuralOffset(b, rnd); const junk = Buffer.from(Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => Math.floor(rnd() * 256))); return Buffer.concat([b.subarray(0, at), junk, b.subarray(at)]); } },
  {
    kind: "xref-truncated",
    apply: (b, rnd) => {
      const text = b.toString("latin1");
      const entries = xrefEntries(text);
      if (entries.length < 2) { const s = text.lastIndexOf("startxref"); return s < 0 ? undefined : b.subarray(0, s + Math.floor(rnd() * 12)); }
      // the table ends early: the last k entries are cut off, the rest of the file stays
      const cut = entries[Math.floor(entries.length * (0.3 + 0.6 * rnd()))].at;
      const trailer = text.indexOf("trailer", cut);
      return Buffer.from(text.slice(0, cut) + text.slice(trailer), "latin1");
    },
  },
  {
    kind: "xref-shifted",
    apply: (b, rnd) => {
      const text = b.toString("latin1");
      const entries = xrefEntries(text);
      const delta = (rnd() < 0.5 ? -1 : 1) * (1 + Math.floor(rnd() * 40));
      if (entries.length === 0) return Buffer.from(text.replace(/startxref\s+(\d+)/, (_m, at: string) => `startxref\n${Math.max(0, Number(at) + delta)}`), "latin1");
      // a run of entries moved by the same amount, as a tool that miscounted a line ending writes them
      const from = Math.floor(rnd() * entries.length);
      const to = Math.min(entries.length, from + 1 + Math.floor(rnd() * entries.length));
      let out = text;
      for (const entry of entries.slice(from, to).reverse()) out = out.slice(0, entry.at) + String(Math.max(0, entry.offset + delta)).padStart(10, "0") + out.slice(entry.at + 10);
      return Buffer.from(out, "latin1");
    },
  },
];

function run(cmd: string, args: string[]): { status: number; text: string } {
  const r = spawnSync(cmd, args, { encoding: "utf8", timeout: 120_000 });
  return { status: r.status ?? 2, text: `${r.stdout}${r.stderr}` };
}

async function main() {
  const only = arg("--only");
  const work = mkdtempSync(path.join(tmpdir(), "mutated-signing-"));
  const pki = createTestPki();
  const totals = { mutated: 0, eligible: 0, signed: 0, byDesign: 0, damaged: 0, other: 0, badOutput: 0 };
  const lines: string[] = [];
  for (const name of readdirSync(DIR).filter((n) => n.endsWith(".pdf")).sort()) {
    const original = readFileSync(path.join(DIR, name));
    for (const mutation of mutations) {
      for (let i = 0; i < PER; i++) {
        const label = `${name}:${mutation.kind}#${i}`;
        if (only && !label.includes(only)) continue;
        const bytes = mutation.apply(original, random(seedOf(label)));
        if (!bytes) continue;
        totals.mutated++;
        const input = path.join(work, `${label.replace(/[^\w.#-]/g, "_")}`);
        writeFileSync(input, bytes);
        if (run("qpdf", ["--check", input]).status !== 3) continue;
        totals.eligible++;
        let verdict: string;
        try {
          const accepted = await acceptPdf(new Uint8Array(bytes), { repair: repairPdf });
          const signed = await signPdf(accepted.bytes, { sign: pki.sign });
          const out = `${input}.signed.pdf`;
          writeFileSync(out, signed);
          const qpdf = run("qpdf", ["--check", out]).status;
          const pdfsig = run("pdfsig", [out]);
          if (qpdf === 0 && pdfsig.status === 0 && /Signature is Valid/.test(pdfsig.text)) {
            totals.signed++;
            verdict = `signed${accepted.repaired ? " (repaired)" : ""}`;
          } else {
            totals.badOutput++;
            verdict = `BAD OUTPUT qpdf ${qpdf} pdfsig ${pdfsig.text.replace(/\s+/g, " ").slice(0, 120)}`;
          }
        } catch (error) {
          const code = error instanceof PdfError ? error.code : "crash";
          if (code === "DAMAGED_SIGNED_PDF") totals.byDesign++;
          else if (code === "INVALID_PDF") totals.damaged++;
          else totals.other++;
          verdict = `refused ${code} ${JSON.stringify((error as PdfError).details ?? (error as Error).message).slice(0, 140)}`;
        }
        lines.push(`${label.padEnd(60)} ${verdict}`);
        console.log(lines.at(-1));
      }
    }
  }
  const pct = ((100 * totals.signed) / Math.max(1, totals.eligible - totals.byDesign)).toFixed(1);
  console.log(`\ncorpus ${DIR}; mutated ${totals.mutated}; eligible (qpdf --check exit 3) ${totals.eligible}`);
  console.log(`signed ${totals.signed} (${((100 * totals.signed) / Math.max(1, totals.eligible)).toFixed(1)} % of eligible; ${pct} % of those not refused by design); refused by design ${totals.byDesign}; refused as damaged ${totals.damaged}; other refusals ${totals.other}; outputs failing qpdf/pdfsig ${totals.badOutput}`);
}

void main();
