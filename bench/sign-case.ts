// One measured (path, input) case of bench/sign.ts: it runs in a child process of its own, so peak
// RSS belongs to that case alone. The shared definitions of the parent and its children live here.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fixturePath } from "@/test/fixtures-dir";

export const ROOT = path.resolve(__dirname, "..");
export const OUT = path.join(ROOT, "bench", "out");
export const PKI_DIR = path.join(OUT, "pki");
export const SIGNED_DIR = path.join(OUT, "signed");
export const FIXTURES = fixturePath("pdfs/valid");
export const P12_PASSPHRASE = "bench";

export type InputId = "1p" | "100p" | "50mb";
export type PathId = "ours-ecdsa" | "ours-rsa" | "ours-ecdsa-widget" | "signpdf-rsa";

export const PATH_LABEL: Record<PathId, string> = {
  "ours-ecdsa": "ours ECDSA P-256",
  "ours-rsa": "ours RSA-2048",
  "ours-ecdsa-widget": "ours ECDSA + widget",
  "signpdf-rsa": "@signpdf RSA-2048",
};

export interface ChildRequest {
  path: PathId;
  input: InputId;
  file: string;
  warmup: number;
  iterations: number;
  /** Stop adding iterations once this much time has been spent measuring (slow paths on big files). */
  budgetMs?: number;
  /** Write the last output here (for validation). */
  writeTo?: string;
}

export interface ChildResult {
  path: PathId;
  input: InputId;
  fileBytes: number;
  outputBytes: number;
  samplesMs: number[];
  sha256Ms: number[];
  baselineRss: number;
  peakRss: number;
  note?: string;
}

async function makeSigner(pathId: PathId): Promise<(bytes: Uint8Array) => Promise<Uint8Array>> {
  if (pathId === "signpdf-rsa") {
    const { PDFDocument } = await import("pdf-lib");
    const { pdflibAddPlaceholder } = await import("@signpdf/placeholder-pdf-lib");
    const { P12Signer } = await import("@signpdf/signer-p12");
    const { SignPdf } = await import("@signpdf/signpdf");
    const p12 = readFileSync(path.join(PKI_DIR, "rsa-signer.p12"));
    const signpdf = new SignPdf();
    // the usual recipe: load, add the placeholder, save (full rewrite), sign; one P12Signer per signature
    return async (bytes) => {
      const pdfDoc = await PDFDocument.load(bytes);
      pdflibAddPlaceholder({ pdfDoc, reason: "Benchmark", contactInfo: "bench@example.test", name: "Bench", location: "Lima" });
      const withPlaceholder = await pdfDoc.save();
      const signer = new P12Signer(p12, { passphrase: P12_PASSPHRASE });
      return signpdf.sign(withPlaceholder, signer);
    };
  }

  const { signPdf } = await import("@/lib/pdf/sign-pdf");
  const { signCadesDetached } = await import("@/lib/pki/sign-cms-detached");
  const { importPrivateKey } = await import("@/lib/pki/import-private-key");
  const rsa = pathId === "ours-rsa";
  const certificateDer = new Uint8Array(readFileSync(path.join(PKI_DIR, rsa ? "rsa-signer.der" : "ecdsa-agent.der")));
  const pkcs8 = new Uint8Array(readFileSync(path.join(PKI_DIR, rsa ? "rsa-signer.pk8" : "ecdsa-agent.pk8")));
  // the trust anchor stays out of the CMS (see docs/pdf-engine.md); the ECDSA chain has an issuing CA
  const chainDer = rsa ? [] : [new Uint8Array(readFileSync(path.join(PKI_DIR, "ecdsa-issuing.der")))];
  const signer = { certificateDer, privateKey: await importPrivateKey(pkcs8), chainDer };
  const sign = (digest: Uint8Array) => signCadesDetached({ digest, signer });
  const common = { sign, reason: "Benchmark", contactInfo: "bench@example.test", signerName: "Bench", location: "Lima" };

  if (pathId === "ours-ecdsa-widget") {
    const { makeStampAppearance } = await import("@/lib/pdf/test-support/make-stamp-appearance");
    // scratch pdf-lib document with a Form XObject, built once (outside the timed region)
    const appearance = await makeStampAppearance(200, 60, "Firmado digitalmente (bench)");
    const widget = { pageIndex: 0, rect: { x: 40, y: 40, width: 200, height: 60 }, appearance };
    return (bytes) => signPdf(bytes, { ...common, widget });
  }
  return (bytes) => signPdf(bytes, common);
}

export async function runChild(request: ChildRequest): Promise<ChildResult> {
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
  const sign = await makeSigner(request.path);
  gc();
  const baselineRss = process.memoryUsage().rss;

  // a Buffer is a Uint8Array; wrapping it in new Uint8Array() would copy the file once more
  const bytes: Uint8Array = readFileSync(request.file);
  // warm-up and timed runs alike: drop the previous output and collect before each signature, so
  // maxRSS is the peak of one signature (input + whatever the path allocates), not of two outputs.
  // SHA-256 over the same bytes is timed right before each signature, so both figures see the same
  // machine load (other processes on a shared 2-core box shift both, and the ratio less).
  let out: Uint8Array = new Uint8Array();
  const signOnce = async () => {
    out = new Uint8Array();
    gc();
    let t = performance.now();
    createHash("sha256").update(bytes).digest();
    const hashMs = performance.now() - t;
    t = performance.now();
    out = await sign(bytes);
    return { signMs: performance.now() - t, hashMs };
  };
  let warmupMs = 0;
  for (let i = 0; i < request.warmup; i++) warmupMs += (await signOnce()).signMs;

  const samplesMs: number[] = [];
  const sha256Ms: number[] = [];
  const budgetStart = performance.now();
  for (let i = 0; i < request.iterations; i++) {
    if (request.budgetMs !== undefined && i > 0 && performance.now() - budgetStart > request.budgetMs) break;
    const { signMs, hashMs } = await signOnce();
    samplesMs.push(signMs);
    sha256Ms.push(hashMs);
  }
  if (request.writeTo) writeFileSync(request.writeTo, out);

  const note =
    samplesMs.length < request.iterations
      ? `${samplesMs.length}/${request.iterations} iterations within the ${request.budgetMs} ms budget (warm-up ${warmupMs.toFixed(0)} ms)`
      : undefined;
  return {
    path: request.path,
    input: request.input,
    fileBytes: bytes.length,
    outputBytes: out.length,
    samplesMs,
    sha256Ms,
    baselineRss,
    peakRss: process.resourceUsage().maxRSS * 1024,
    note,
  };
}
