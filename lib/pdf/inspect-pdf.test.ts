import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { inspectPdf } from "@/lib/pdf/inspect-pdf";
import { fixturePath } from "@/test/fixtures-dir";

const FIXTURES = fixturePath("pdfs");
const inspect = (name: string) => inspectPdf(new Uint8Array(readFileSync(path.join(FIXTURES, name))));

describe("inspectPdf", () => {
  test.each([
    { file: "valid/classic-xref-pdftex-tracemonkey.pdf", pageCount: 14, xrefKind: "table" },
    { file: "valid/pdftex-libtasn1-manual.pdf", pageCount: 36, xrefKind: "stream" },
    { file: "valid/hybrid-xref-word365.pdf", pageCount: 1, xrefKind: "table" },
    { file: "valid/linearized-xrefstream-pdftex.pdf", pageCount: 1, xrefKind: "stream" },
    { file: "valid/openoffice-55pages-links.pdf", pageCount: 55, xrefKind: "table" },
    { file: "valid/acroform-irs-f1040-ur3.pdf", pageCount: 2, xrefKind: "stream" },
    { file: "signed-by-others/poppler-two-signatures.pdf", pageCount: 1, xrefKind: "table", signatureCount: 2 },
    { file: "valid/empty-signature-field.pdf", pageCount: 2, xrefKind: "table", signatureCount: 0 },
    { file: "hostile/gen-100k-pages.pdf", pageCount: 100_000, xrefKind: "stream" },
  ])("$file", ({ file, pageCount, xrefKind, signatureCount = 0 }) => {
    expect(inspect(file)).toMatchObject({ pageCount, xrefKind, signatureCount, encrypted: false });
  });

  test("page geometry: rotation per page, CropBox clipped to MediaBox", () => {
    const mixed = inspect("valid/mixed-a4-letter-landscape-rotated.pdf");
    expect(mixed.pages.map((p) => p.rotate)).toEqual([0, 90, 0, 270, 0]);
    const crop = inspect("valid/cropbox-inside-mediabox.pdf").pages[0];
    expect(crop.mediaBox).toEqual([0, 0, 1190, 1684]);
    expect(crop.cropBox).toEqual([173, 247, 1014, 1437]);
    expect(inspect("valid/ghostscript-gdb-refcard-rotate270.pdf").pages.map((p) => p.rotate)).toEqual([270, 270]);
  });

  test("DocMDP permission is reported", () => {
    expect(inspect("signed-by-others/jsignpdf-docmdp1-certified.pdf").docMdpPermission).toBe(1);
  });

  test.each([
    ["hostile/gen-zero-bytes.pdf", "INVALID_PDF"],
    ["hostile/gen-pages-cycle-self.pdf", "INVALID_PDF"],
    ["hostile/gen-xref-size-2e9.pdf", "PDF_TOO_COMPLEX"],
    ["encrypted/user-password-abc.pdf", "ENCRYPTED_PDF"],
  ])("%s → %s", (file, code) => {
    expect(() => inspect(file)).toThrow(expect.objectContaining({ code }));
  });
});
