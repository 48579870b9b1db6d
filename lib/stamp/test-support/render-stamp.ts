import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument, PDFName, PDFObjectCopier, concatTransformationMatrix, drawObject, popGraphicsState, pushGraphicsState } from "pdf-lib";
import { PNG } from "pngjs";
import type { DrawnStamp } from "@/lib/stamp/draw-stamp";

export interface RenderedStamp {
  pdf: Uint8Array;
  png: PNG;
  pngPath: string;
  /** `qpdf --check` output; the call throws when qpdf finds errors or warnings. */
  qpdfReport: string;
  text: string;
}

/**
 * Test-only: copies the stamp's Form XObject into a fresh document (as the signing engine does),
 * shows it on a page with a margin, then checks and renders that PDF with qpdf, pdftoppm, pdftotext.
 */
export async function renderStamp(stamp: DrawnStamp, dpi = 150, margin = 20): Promise<RenderedStamp> {
  await stamp.document.flush();
  const target = await PDFDocument.create();
  const copied = PDFObjectCopier.for(stamp.document.context, target.context).copy(stamp.document.context.lookup(stamp.formXObject)!);
  const ref = target.context.register(copied);
  const page = target.addPage([stamp.width + 2 * margin, stamp.height + 2 * margin]);
  page.node.setXObject(PDFName.of("Stamp"), ref);
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(1, 0, 0, 1, margin, margin), drawObject("Stamp"), popGraphicsState());
  const pdf = await target.save();

  const dir = mkdtempSync(path.join(tmpdir(), "stamp-render-"));
  const input = path.join(dir, "stamp.pdf");
  writeFileSync(input, pdf);
  const qpdfReport = execFileSync("qpdf", ["--check", input], { encoding: "utf8" });
  execFileSync("pdftoppm", ["-r", String(dpi), "-png", "-singlefile", input, path.join(dir, "stamp")]);
  const pngPath = path.join(dir, "stamp.png");
  const png = PNG.sync.read(readFileSync(pngPath));
  const text = execFileSync("pdftotext", ["-enc", "UTF-8", input, "-"], { encoding: "utf8" });
  return { pdf, png, pngPath, qpdfReport, text };
}
