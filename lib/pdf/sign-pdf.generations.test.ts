import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { signPdf } from "@/lib/pdf/sign-pdf";
import { TestPki, createTestPki } from "@/lib/pdf/test-support/create-test-pki";
import { makeStampAppearance } from "@/lib/pdf/test-support/make-stamp-appearance";
import { renderPage } from "@/lib/pdf/test-support/render-page";
import { validatePdf } from "@/lib/pdf/test-support/run-validators";

/**
 * A one-page PDF whose catalog, page tree and page carry generation `gen` (as files that were
 * edited and saved by some tools do), written with a correct classic xref.
 */
function pdfWithGenerations(gen: { catalog: number; pages: number; page: number }): Uint8Array {
  const content = "BT /F1 18 Tf 72 720 Td (Generaciones) Tj ET";
  const objects: [number, number, string][] = [
    [1, gen.catalog, `<< /Type /Catalog /Pages 2 ${gen.pages} R >>`],
    [2, gen.pages, `<< /Type /Pages /Kids [3 ${gen.page} R] /Count 1 >>`],
    [3, gen.page, `<< /Type /Page /Parent 2 ${gen.pages} R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>`],
    [4, 0, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`],
    [5, 0, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"],
  ];
  let text = "%PDF-1.7\n";
  const offsets: [number, number][] = [];
  for (const [num, g, body] of objects) {
    offsets.push([text.length, g]);
    text += `${num} ${g} obj\n${body}\nendobj\n`;
  }
  const xref = text.length;
  text += `xref\n0 6\n0000000000 65535 f\r\n${offsets.map(([at, g]) => `${String(at).padStart(10, "0")} ${String(g).padStart(5, "0")} n\r\n`).join("")}`;
  text += `trailer\n<< /Size 6 /Root 1 ${gen.catalog} R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(text, "latin1"));
}

let pki: TestPki;
let dir: string;
beforeAll(() => {
  pki = createTestPki();
  dir = mkdtempSync(path.join(tmpdir(), "pdf-gen-"));
});

describe("objects with a generation other than 0 keep it when we rewrite them", () => {
  test.each([
    ["page", { catalog: 0, pages: 0, page: 1 }],
    ["catalog and page tree", { catalog: 2, pages: 1, page: 0 }],
    ["all three", { catalog: 3, pages: 2, page: 1 }],
  ])("%s: the stamp renders where it was placed and every validator accepts the file", async (name, gen) => {
    const signed = await signPdf(pdfWithGenerations(gen), {
      sign: pki.sign,
      widget: { pageIndex: 0, rect: { x: 300, y: 100, width: 200, height: 70 }, appearance: await makeStampAppearance(200, 70) },
    });
    const tail = Buffer.from(signed).toString("latin1", pdfWithGenerations(gen).length);
    if (gen.page) expect(tail).toContain(`3 ${gen.page} obj`);
    if (gen.catalog) expect(tail).toContain(`1 ${gen.catalog} obj`);
    // the stamp box (x 300..500, y 100..170 from the bottom of a 792 pt page) has ink; the rest of that row does not
    const page = renderPage(signed, 1);
    expect(page.inkRatio({ left: 305, top: 792 - 165, right: 495, bottom: 792 - 105 })).toBeGreaterThan(0.02);
    expect(page.inkRatio({ left: 20, top: 792 - 165, right: 280, bottom: 792 - 105 })).toBe(0);
    const file = path.join(dir, `${name.replace(/\W+/g, "-")}.pdf`);
    writeFileSync(file, signed);
    const report = await validatePdf(file, pki.caPemPath);
    expect(report.ok, report.output).toBe(true);
  });

  test("a signature on the signed file keeps both valid", async () => {
    const first = await signPdf(pdfWithGenerations({ catalog: 2, pages: 1, page: 1 }), { sign: pki.sign });
    const second = await signPdf(first, { sign: pki.sign, widget: { pageIndex: 0, rect: { x: 50, y: 50, width: 150, height: 50 }, appearance: await makeStampAppearance(150, 50) } });
    const file = path.join(dir, "twice.pdf");
    writeFileSync(file, second);
    const report = await validatePdf(file, pki.caPemPath);
    expect(report.ok, report.output).toBe(true);
  });
});
