import { readFileSync } from "node:fs";
import { PDFDict, PDFName, PDFNumber } from "pdf-lib";
import { beforeAll, describe, expect, test } from "vitest";
import { finishLongTermValidation } from "@/lib/pdf/add-document-timestamp";
import { openLazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { signPdf } from "@/lib/pdf/sign-pdf";
import { createTestPki, type TestPki } from "@/lib/pdf/test-support/create-test-pki";
import { appendRevision, edited, nextObjectNumber, view } from "@/lib/verification/testing/forge-pdf";
import { fixturePath } from "@/test/fixtures-dir";

const FIXTURES = fixturePath("pdfs");
const read = (name: string) => new Uint8Array(readFileSync(`${FIXTURES}/${name}`));

let pki: TestPki;
beforeAll(() => {
  pki = createTestPki();
});

/** /Extensions of the catalog a reader sees in `bytes`, as { prefix: { BaseVersion, ExtensionLevel } }. */
function extensionsOf(bytes: Uint8Array): Record<string, { BaseVersion?: string; ExtensionLevel?: number }> {
  const pdf = openLazyPdf(bytes);
  const catalog = pdf.lookupDict(pdf.trailer.get(PDFName.of("Root")))!;
  const extensions = pdf.lookupDict(catalog.get(PDFName.of("Extensions")));
  const result: Record<string, { BaseVersion?: string; ExtensionLevel?: number }> = {};
  for (const [key, value] of extensions?.entries() ?? []) {
    const entry = pdf.lookup(value);
    if (!(entry instanceof PDFDict)) continue;
    const base = pdf.lookup(entry.get(PDFName.of("BaseVersion")));
    const level = pdf.lookup(entry.get(PDFName.of("ExtensionLevel")));
    result[key.decodeText()] = { BaseVersion: base instanceof PDFName ? base.decodeText() : undefined, ExtensionLevel: level instanceof PDFNumber ? level.asNumber() : undefined };
  }
  return result;
}

const ESIC_LEVEL_5 = { BaseVersion: "1.7", ExtensionLevel: 5 };

/** A copy of `bytes` whose catalog declares `extensions` (as another tool would have written it). */
function withExtensions(bytes: Uint8Array, extensions: string): Uint8Array {
  const { catalog, catalogRef } = view(bytes);
  const num = nextObjectNumber(bytes);
  return appendRevision(bytes, [
    { num, body: extensions },
    { num: catalogRef.objectNumber, body: edited(catalog, { Extensions: `${num} 0 R` }) },
  ]);
}

describe("/Extensions /ESIC on outputs that use PDF 2.0 signature features", () => {
  test.each(["valid/libreoffice74-contrato-a4.pdf", "valid/pdf13-fpdf.pdf", "valid/hybrid-xref-word365.pdf"])("%s (PDF 1.x): a CAdES signature declares ESIC level 5 in the signed revision", async (name) => {
    const input = read(name);
    expect(extensionsOf(input).ESIC).toBeUndefined();
    const signed = await signPdf(input, { sign: pki.sign });
    expect(extensionsOf(signed)).toEqual({ ESIC: ESIC_LEVEL_5 });
    // the unsigned DSS revision after it keeps the declaration as signed
    const withDss = await finishLongTermValidation(signed, { certificates: [pki.signerCertDer, pki.caDer], crls: [pki.crlDer] });
    expect(extensionsOf(withDss)).toEqual({ ESIC: ESIC_LEVEL_5 });
  });

  test("a document time-stamp (B-LTA) on a file signed by another tool declares ESIC beside the file's /ADBE extension", async () => {
    const input = withExtensions(read("signed-by-others/jsignpdf-openpdf-approval.pdf"), "<< /ADBE << /BaseVersion /1.7 /ExtensionLevel 8 >> >>");
    const finished = await finishLongTermValidation(input, { certificates: [pki.caDer, pki.tsaCertDer], crls: [pki.crlDer], timestamp: pki.timestamp });
    expect(extensionsOf(finished)).toEqual({ ADBE: { BaseVersion: "1.7", ExtensionLevel: 8 }, ESIC: ESIC_LEVEL_5 });
  });

  test.each(["valid/pdf20-xrefstream-luatex.pdf", "valid/pdf20-classic-xref-latex.pdf"])("%s (PDF 2.0): nothing is declared, the features are part of the version", async (name) => {
    const signed = await signPdf(read(name), { sign: pki.sign });
    expect(extensionsOf(signed)).toEqual({});
  });

  test.each([
    { case: "an older ESIC level 2 (CAdES only) is raised to 5, other extensions kept", declared: "<< /ESIC << /BaseVersion /1.7 /ExtensionLevel 2 >> /ADBE << /BaseVersion /1.7 /ExtensionLevel 3 >> >>", expected: { ESIC: ESIC_LEVEL_5, ADBE: { BaseVersion: "1.7", ExtensionLevel: 3 } } },
    { case: "ESIC level 5 already declared is left as it is", declared: "<< /ESIC << /BaseVersion /1.7 /ExtensionLevel 5 >> >>", expected: { ESIC: ESIC_LEVEL_5 } },
    { case: "a higher ESIC level is never lowered", declared: "<< /ESIC << /BaseVersion /1.7 /ExtensionLevel 7 >> >>", expected: { ESIC: { BaseVersion: "1.7", ExtensionLevel: 7 } } },
  ])("$case", async ({ declared, expected }) => {
    const signed = await signPdf(withExtensions(read("valid/libreoffice74-contrato-a4.pdf"), declared), { sign: pki.sign });
    expect(extensionsOf(signed)).toEqual(expected);
  });
});
