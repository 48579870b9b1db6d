// Child-process entry for the hostile-input test: signs one file and prints one JSON line, so a hang
// or a memory blow-up is contained by the parent's timeout and --max-old-space-size.
import { readFileSync } from "node:fs";
import { signPdf } from "@/lib/pdf/sign-pdf";
import { PdfError } from "@/lib/pdf/errors";

const [file, outFile] = process.argv.slice(2);
const started = performance.now();
const dummySigner = async () => new Uint8Array(64).fill(0x30);

signPdf(new Uint8Array(readFileSync(file)), { sign: dummySigner })
  .then(async (signed) => {
    if (outFile) (await import("node:fs")).writeFileSync(outFile, signed);
    console.log(JSON.stringify({ result: "signed", ms: performance.now() - started }));
  })
  .catch((error: unknown) => {
    const result = error instanceof PdfError ? { result: "refused", code: error.code, reason: error.details?.reason } : { result: "crash", message: String(error) };
    console.log(JSON.stringify({ ...result, ms: performance.now() - started }));
  });
