import { PDFArray, PDFName } from "pdf-lib";
import { beforeAll, describe, expect, test } from "vitest";
import { COVER, SIGNED_TEXT_RECT } from "./testing/attack-catalogue";
import { fillField, withEmptySignatureField, withEmptyTextField, withFontRewritten, withOverlayContent, withUnsignedSave } from "./testing/forge-form-changes";
import { appendRevision, edited, nextObjectNumber, view } from "./testing/forge-pdf";
import { makeGenuineOutputs, type GenuineOutputs } from "./testing/make-genuine-outputs";
import { verifyPdfSignatures } from "./verify-pdf-signatures";

/**
 * Issue 41: what the page shows decides the changes the standard's object rules allow or leave open.
 * Each tolerance (a fill, an annotation, a re-written font, an unsigned save, a new signature field)
 * has its genuine case accepted and its forged counterpart caught.
 */
let genuine: GenuineOutputs;
const verify = (bytes: Uint8Array) => verifyPdfSignatures(bytes, genuine.anchorsDer);
const kinds = (changes: { kind: string }[]) => changes.map((change) => change.kind);
// a blank band of the fixture's first page (its text runs from y 556 to 785)
const BLANK_RECT = [72, 420, 400, 450] as const;

beforeAll(async () => {
  genuine = await makeGenuineOutputs();
}, 120_000);

describe("a form field filled after an approval signature", () => {
  test("genuine: a field over blank space, filled, is an allowed form fill", async () => {
    const { bytes, field } = withEmptyTextField(genuine.original, "monto", BLANK_RECT);
    const filled = fillField(await genuine.signLongTerm(bytes), field, BLANK_RECT);
    const report = await verify(filled);
    expect(report.signatures[0].status).toBe("valid");
    expect(kinds(report.signatures[0].allowedChangesAfter)).toContain("form-fill");
  });

  test("forged (shadow replace through a field): a field lying over signed text, filled, covers it and is a change naming page and field", async () => {
    const { bytes, field } = withEmptyTextField(genuine.original, "monto", SIGNED_TEXT_RECT);
    const signed = await genuine.signLongTerm(bytes);
    expect((await verify(signed)).verdict).toBe("valid");
    const report = await verify(fillField(signed, field, SIGNED_TEXT_RECT));
    expect(report.signatures[0].status).toBe("changed");
    const visible = report.signatures[0].changesAfter.filter((change) => change.kind === "visible-change");
    expect(visible.map((change) => change.detail).join(" ")).toMatch(/page 1: field "monto" draws over content that was visible when signed/);
  });
});

describe("annotations after an approval signature (no DocMDP, no FieldMDP)", () => {
  const note = (base: Uint8Array, rect: readonly number[]) => {
    const { pdf, page, pageRef, catalog, catalogRef } = view(base);
    const n = nextObjectNumber(base);
    const annots = pdf.lookup(page.get(PDFName.of("Annots"))) as PDFArray;
    return appendRevision(base, [
      { num: n + 1, body: COVER(rect[2] - rect[0], rect[3] - rect[1]) },
      { num: n, body: `<< /Type /Annot /Subtype /FreeText /Rect [${rect.join(" ")}] /Contents (Revisado) /DA (/Helv 12 Tf 0 g) /AP << /N ${n + 1} 0 R >> >>` },
      { num: pageRef.objectNumber, body: edited(page, { Annots: `[${annots.asArray().map(String).join(" ")} ${n} 0 R]` }) },
      // the tool also names a destination: a new /Names entry in the catalog
      { num: n + 2, body: `<< /Names [(nota) [${pageRef} /XYZ 0 800 0]] >>` },
      { num: catalogRef.objectNumber, body: edited(catalog, { Names: `<< /Dests ${n + 2} 0 R >>` }) },
    ]);
  };

  test("genuine: an annotation on blank space with a new /Names entry is allowed and listed", async () => {
    const report = await verify(note(genuine.stamp, BLANK_RECT));
    expect(report.signatures[0].status).toBe("valid");
    expect(kinds(report.signatures[0].allowedChangesAfter)).toEqual(expect.arrayContaining(["annotation", "document-structure"]));
  });

  test("forged: the same annotation over signed text is a change", async () => {
    const report = await verify(note(genuine.stamp, SIGNED_TEXT_RECT));
    expect(report.signatures[0].status).toBe("changed");
    expect(report.signatures[0].changesAfter.map((change) => change.detail).join(" ")).toMatch(/page 1: annotation \d+ \(FreeText\) draws over content/);
  });
});

describe("a font the signed page uses, written again later", () => {
  test("genuine: re-saved with an entry no renderer reads, it renders the same and is allowed", async () => {
    const report = await verify(withFontRewritten(genuine.stamp, (dict) => `${dict.slice(0, -2)} /Name /F1 >>`));
    expect(report.signatures[0].status).toBe("valid");
    const font = report.signatures[0].allowedChangesAfter.find((change) => change.kind === "object-changed");
    expect(font?.detail).toMatch(/every page renders as signed/);
  });

  test("forged: replaced by a font that draws other glyphs, it is a change", async () => {
    const report = await verify(withFontRewritten(genuine.stamp, () => "<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>"));
    expect(report.signatures[0].status).toBe("changed");
    expect(kinds(report.signatures[0].changesAfter)).toEqual(expect.arrayContaining(["object-changed", "visible-change"]));
  });
});

describe("an unsigned incremental save", () => {
  test("genuine: it re-writes the catalog and changes nothing visible: allowed, recorded", async () => {
    const report = await verify(withUnsignedSave(genuine.stamp));
    expect(report.signatures[0].status).toBe("valid");
    expect(kinds(report.signatures[0].allowedChangesAfter)).toContain("revision-without-signature");
  });

  test("forged: it adds a visible overlay over the signed text", async () => {
    const report = await verify(withOverlayContent(genuine.stamp, `q 1 g ${SIGNED_TEXT_RECT[0]} 690 480 100 re f Q`));
    expect(report.signatures[0].status).toBe("changed");
    expect(kinds(report.signatures[0].changesAfter)).toEqual(expect.arrayContaining(["page-content", "visible-change"]));
  });
});

describe("a last revision adding an empty signature field for the next signer", () => {
  test("genuine: allowed for every earlier signature", async () => {
    const report = await verify(withEmptySignatureField(genuine.signedTwice, [300, 50, 500, 120]));
    expect(report.signatures.map((signature) => signature.status)).toEqual(["valid", "valid"]);
    expect(kinds(report.signatures[0].allowedChangesAfter)).toContain("signature-field");
  });

  test("forged: the empty field's appearance covers the signed text", async () => {
    const [x0, y0, x1, y1] = SIGNED_TEXT_RECT;
    const report = await verify(withEmptySignatureField(genuine.stamp, SIGNED_TEXT_RECT, COVER(x1 - x0, y1 - y0)));
    expect(report.signatures[0].status).toBe("changed");
    expect(report.signatures[0].changesAfter.map((change) => change.detail).join(" ")).toMatch(/field "Firmante2" draws over content/);
  });
});
