import { PDFDocument, StandardFonts } from "pdf-lib";
import { comparePageRasters } from "@/lib/verification/compare-page-rasters";
import { renderPages } from "@/lib/verification/render-pages";

/** The render check's cost on a 50-page text document: both versions rendered and compared page by page. Prints figures, asserts nothing. */
async function main() {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < 50; p++) {
    const page = doc.addPage([595, 842]);
    for (let line = 0; line < 45; line++) page.drawText(`Página ${p + 1}, cláusula ${line + 1}: el arrendatario pagará la renta mensual pactada.`, { x: 50, y: 800 - line * 17, size: 11, font });
  }
  const bytes = await doc.save();
  const pages = Array.from({ length: 50 }, (_, i) => i + 1);
  const started = performance.now();
  const [a, b] = await Promise.all([renderPages(bytes, pages), renderPages(bytes, pages)]);
  const rendered = performance.now();
  for (const page of pages) comparePageRasters(await a.page(page), await b.page(page), { mediaBox: [0, 0, 595, 842], cropBox: [0, 0, 595, 842], rotate: 0 }, []);
  const done = performance.now();
  await a.dispose();
  await b.dispose();
  const children = process.resourceUsage();
  console.log(`50 pages, two versions: render ${(rendered - started).toFixed(0)} ms, compare ${(done - rendered).toFixed(0)} ms, total ${((done - started) / 50).toFixed(1)} ms per page`);
  console.log(`peak RSS of this process: ${(children.maxRSS / 1024).toFixed(0)} MB`);
}
void main();
