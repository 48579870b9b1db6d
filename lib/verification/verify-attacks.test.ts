import { createHash } from "node:crypto";
import { PDFArray, PDFName, PDFRef } from "pdf-lib";
import { beforeAll, describe, expect, test } from "vitest";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { signPdf } from "@/lib/pdf/sign-pdf";
import { readSignedData } from "./read-signed-data";
import { createCertificate } from "@/lib/pki/create-certificate";
import { signCadesDetached } from "@/lib/pki/sign-cms-detached";
import { x509 } from "@/lib/pki/x509-provider";
import { makeGenuineOutputs, type GenuineOutputs } from "./testing/make-genuine-outputs";
import {
  addToFields,
  appendRevision,
  edited,
  firstSignatureField,
  locateSignature,
  nextObjectNumber,
  replaceBytes,
  rewriteByteRange,
  scanObjects,
  streamBody,
  view,
} from "./testing/forge-pdf";
import { verifyPdfSignatures } from "./verify-pdf-signatures";

let genuine: GenuineOutputs;
const verify = (bytes: Uint8Array) => verifyPdfSignatures(bytes, genuine.anchorsDer);
const PAY = "BT /F1 24 Tf 72 400 Td (Pagar 1.000.000 a Mallory) Tj ET";

beforeAll(async () => {
  genuine = await makeGenuineOutputs();
}, 120_000);

/** An attack must never come back valid; the first (attacked) signature must not either. */
async function expectNotValid(bytes: Uint8Array) {
  const report = await verify(bytes);
  expect(report.verdict).not.toBe("valid");
  expect(report.signatures[0].status).not.toBe("valid");
  return report;
}

describe("genuine outputs of our engine are valid", () => {
  test("a stamp output (one signature + DSS) is valid, trusted, B-LT, with the DSS as an allowed change", async () => {
    const report = await verify(genuine.stamp);
    expect(report.verdict).toBe("valid");
    expect(report.signatures).toMatchObject([{ kind: "signature", integrity: "intact", trusted: true, status: "valid", level: "B-LT", modifiedAfter: true, changesAfter: [] }]);
    expect(report.signatures[0].allowedChangesAfter.map((c) => c.kind)).toContain("validation-data");
    expect(report.signatures[0].timeStamp).toMatchObject({ valid: true, matchesSignature: true });
  });

  test("a file signed twice keeps both signatures valid; the later signature is an allowed change for the first", async () => {
    const report = await verify(genuine.signedTwice);
    expect(report.signatures.map((s) => s.status)).toEqual(["valid", "valid"]);
    expect(report.signatures[0].allowedChangesAfter.map((c) => c.kind)).toEqual(expect.arrayContaining(["validation-data", "signature"]));
  });

  test("a completed two-signer document: both signatures B-LTA and our document time-stamp valid (its TSA certificate is in the DSS)", async () => {
    const report = await verify(genuine.twoSignersLta);
    expect(report.verdict).toBe("valid");
    expect(report.signatures.map((s) => [s.kind, s.status, s.level])).toEqual([
      ["signature", "valid", "B-LTA"],
      ["signature", "valid", "B-LTA"],
      ["document-timestamp", "valid", undefined],
    ]);
    expect(report.signatures[2].signer).toBe("FirmaViva TSA (Calidad)");
  });

  test("without the DSS, a signature time-stamp whose TSA certificate is nowhere cannot be verified", async () => {
    const report = await verify(genuine.bare);
    expect(report.signatures[0]).toMatchObject({ status: "invalid", integrity: "signature-invalid" });
    expect(report.signatures[0].detail).toContain("TSA certificate");
  });
});

describe("Universal Signature Forgery", () => {
  test.each([
    ["/Contents zeroed", (b: Uint8Array) => replaceBytes(b, locateSignature(b).contentsStart + 1, "0".repeat(locateSignature(b).contentsEnd - locateSignature(b).contentsStart - 2))],
    ["/ByteRange missing", (b: Uint8Array) => replaceBytes(b, locateSignature(b).byteRangeStart, "/ByteRangX")],
    ["/ByteRange [0 0 0 0]", (b: Uint8Array) => rewriteByteRange(b, [0, 0, 0, 0])],
    ["/ByteRange not starting at 0", (b: Uint8Array) => rewriteByteRange(b, [1, locateSignature(b).byteRange[1] - 1, ...locateSignature(b).byteRange.slice(2)])],
    ["/ByteRange parts overlapping", (b: Uint8Array) => { const [, l1, s2, l2] = locateSignature(b).byteRange; return rewriteByteRange(b, [0, s2 + 10, s2, l2]); }],
    ["/ByteRange past the end of the file", (b: Uint8Array) => { const [, l1, s2, l2] = locateSignature(b).byteRange; return rewriteByteRange(b, [0, l1, s2, l2 + b.length]); }],
  ])("%s: invalid", async (_name, forge) => {
    const report = await expectNotValid(forge(genuine.stamp));
    expect(report.signatures[0].status).toBe("invalid");
  });

  test("a new revision with other page text and a signature field whose dictionary has no /Contents: both reported", async () => {
    const base = genuine.stamp;
    const { page, pageRef } = view(base);
    const n = nextObjectNumber(base);
    const forged = appendRevision(base, [
      { num: n, body: streamBody(PAY) },
      { num: n + 1, body: "<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /ByteRange [0 10 20 30] >>" },
      { num: n + 2, body: `<< /FT /Sig /T (Forged) /V ${n + 1} 0 R /Type /Annot /Subtype /Widget /Rect [0 0 0 0] /P ${pageRef} >>` },
      { num: pageRef.objectNumber, body: edited(page, { Contents: `${n} 0 R` }) },
      ...addToFields(base, n + 2),
    ]);
    const report = await expectNotValid(forged);
    expect(report.verdict).toBe("invalid");
    expect(report.signatures[0].changesAfter.map((c) => c.kind)).toContain("page-content");
    expect(report.signatures[1]).toMatchObject({ status: "invalid" });
  });
});

describe("Signature Wrapping", () => {
  test("objects hidden in the /Contents gap, reached through a new cross-reference: the gap is not the /Contents string", async () => {
    const base = genuine.stamp;
    const sig = locateSignature(base);
    const hex = Buffer.from(base).toString("latin1", sig.contentsStart + 1, sig.contentsEnd - 1).replace(/0+$/, "");
    const cmsHex = hex.length % 2 ? `${hex}0` : hex;
    const { page, pageRef } = view(base);
    const n = nextObjectNumber(base);
    // the hidden objects sit in a string value, so the signature dictionary still parses
    const hidden = ` /Junk (\n${n} 0 obj\n${streamBody(PAY)}\nendobj\n${pageRef.objectNumber} 0 obj\n${edited(page, { Contents: `${n} 0 R` })}\nendobj\n) /Junk2 <`;
    const gap = sig.contentsEnd - sig.contentsStart;
    const filler = gap - 2 - cmsHex.length - hidden.length - 1;
    expect(filler).toBeGreaterThan(0);
    // still a '<' at the start and a '>' at the end of the gap, as a naive check expects
    const wrapped = replaceBytes(base, sig.contentsStart, `<${cmsHex}>${hidden}${" ".repeat(filler)}>`);
    const objects = scanObjects(Buffer.from(wrapped));
    const forged = appendRevision(wrapped, [{ num: n + 1, body: "<< >>" }]);
    // point the page and the new content at the hidden copies inside the gap
    const patched = patchXref(forged, new Map([[n, objects.get(n)!], [pageRef.objectNumber, objects.get(pageRef.objectNumber)!]]));
    const report = await expectNotValid(patched);
    expect(report.signatures[0]).toMatchObject({ status: "invalid", integrity: "ranges-invalid" });
  });

  test("the signed bytes moved behind a wider gap and a new signature dictionary claiming them: refused", async () => {
    const base = genuine.bare;
    const sig = locateSignature(base);
    const [, l1, s2, l2] = sig.byteRange;
    const { value, fieldRef, field } = firstSignatureField(base);
    const n = nextObjectNumber(base);
    const insertion = `\n${n} 0 obj\n${streamBody(PAY)}\nendobj\n%>`;
    const movedStart = s2 + insertion.length;
    const newDict = edited(value, { ByteRange: `[0 ${l1} ${movedStart} ${l2}]` });
    const head = Buffer.from(base.subarray(0, s2));
    const wrapped = new Uint8Array(Buffer.concat([head, Buffer.from(insertion, "latin1"), Buffer.from(base.subarray(s2, s2 + l2))]));
    const forged = appendRevision(wrapped, [
      { num: n + 1, body: newDict },
      { num: fieldRef.objectNumber, body: edited(field, { V: `${n + 1} 0 R` }) },
    ], { trailerFrom: base, prev: false });
    // the original second part (with its old xref) moved: a full fresh xref is what a wrapping attacker writes
    const relinked = forged;
    const signedAgain = Buffer.concat([relinked.subarray(0, l1), relinked.subarray(movedStart, movedStart + l2)]);
    expect(createHash("sha256").update(signedAgain).digest()).toEqual(createHash("sha256").update(Buffer.concat([base.subarray(0, l1), base.subarray(s2, s2 + l2)])).digest());
    const report = await verify(relinked);
    expect(report.verdict).not.toBe("valid");
    expect(report.signatures.every((s) => s.status === "invalid")).toBe(true);
  });
});

describe("Incremental Saving", () => {
  test("new page content after signing: changed, naming the page content", async () => {
    const base = genuine.stamp;
    const { page, pageRef } = view(base);
    const n = nextObjectNumber(base);
    const forged = appendRevision(base, [{ num: n, body: streamBody(PAY) }, { num: pageRef.objectNumber, body: edited(page, { Contents: `${n} 0 R` }) }]);
    const report = await expectNotValid(forged);
    expect(report.signatures[0].status).toBe("changed");
    expect(report.signatures[0].changesAfter).toContainEqual(expect.objectContaining({ kind: "page-content", revision: 3, allowed: false }));
  });

  test("an annotation added after signing: changed", async () => {
    const base = genuine.stamp;
    const { pdf, page, pageRef } = view(base);
    const n = nextObjectNumber(base);
    const annots = pdf.lookup(page.get(PDFName.of("Annots"))) as PDFArray;
    const forged = appendRevision(base, [
      { num: n, body: "<< /Type /Annot /Subtype /FreeText /Rect [72 380 400 420] /Contents (Pagar 1.000.000) /DA (/Helv 18 Tf 0 g) >>" },
      { num: pageRef.objectNumber, body: edited(page, { Annots: `[${annots.asArray().map(String).join(" ")} ${n} 0 R]` }) },
    ]);
    const report = await expectNotValid(forged);
    expect(report.signatures[0].changesAfter.map((c) => c.kind)).toContain("annotation");
  });

  test("an overlay: a new signature widget with an appearance but no valid signature behind it", async () => {
    const base = genuine.stamp;
    const { pdf, page, pageRef } = view(base);
    const annots = pdf.lookup(page.get(PDFName.of("Annots"))) as PDFArray;
    const n = nextObjectNumber(base);
    const report = await expectNotValid(
      appendRevision(base, [
        { num: n, body: streamBody(PAY, "/Type /XObject /Subtype /Form /BBox [0 0 600 800]") },
        { num: n + 1, body: `<< /FT /Sig /T (Overlay) /Type /Annot /Subtype /Widget /Rect [0 0 600 800] /P ${pageRef} /AP << /N ${n} 0 R >> >>` },
        { num: pageRef.objectNumber, body: edited(page, { Annots: `[${annots.asArray().map(String).join(" ")} ${n + 1} 0 R]` }) },
        ...addToFields(base, n + 1),
      ]),
    );
    expect(report.signatures[0].status).toBe("changed");
    expect(report.signatures[0].changesAfter.map((c) => c.kind)).toEqual(expect.arrayContaining(["annotation", "form-field"]));
  });

  test("objects appended without any cross-reference entry (the old startxref repeated): changed", async () => {
    const base = genuine.stamp;
    const { page, pageRef } = view(base);
    const n = nextObjectNumber(base);
    const forged = appendRevision(base, [{ num: n, body: streamBody(PAY) }, { num: pageRef.objectNumber, body: edited(page, { Contents: `${n} 0 R` }) }], { startxrefOnly: true });
    const report = await expectNotValid(forged);
    expect(report.signatures[0].changesAfter.map((c) => c.kind)).toContain("unaccounted-bytes");
  });

  test("a fresh cross-reference without /Prev that redefines the page: the signed revision is no longer in the chain", async () => {
    const base = genuine.stamp;
    const { page, pageRef } = view(base);
    const n = nextObjectNumber(base);
    const forged = appendRevision(base, [{ num: n, body: streamBody(PAY) }, { num: pageRef.objectNumber, body: edited(page, { Contents: `${n} 0 R` }) }], { prev: false });
    await expectNotValid(forged);
  });

  test("the stamp's appearance XObject swapped for another: changed", async () => {
    const base = genuine.stamp;
    const { pdf } = view(base);
    const { field } = firstSignatureField(base);
    const appearance = pdf.lookupDict(field.get(PDFName.of("AP")))!.get(PDFName.of("N")) as PDFRef;
    const forged = appendRevision(base, [{ num: appearance.objectNumber, body: streamBody(PAY, "/Type /XObject /Subtype /Form /BBox [0 0 200 70]") }]);
    const report = await expectNotValid(forged);
    expect(report.signatures[0].changesAfter).toContainEqual(expect.objectContaining({ object: appearance.objectNumber, allowed: false }));
  });

  test("the signature dictionary itself replaced in a later revision: refused", async () => {
    const base = genuine.stamp;
    const { value, valueRef } = firstSignatureField(base);
    const forged = appendRevision(base, [{ num: valueRef.objectNumber, body: edited(value, { Reason: "(otra cosa)" }) }]);
    const report = await expectNotValid(forged);
    expect(report.signatures[0].status).toBe("invalid");
  });

  test("a later unsigned revision on the two-signer B-LTA document: every signature reports it", async () => {
    const base = genuine.twoSignersLta;
    const { page, pageRef } = view(base);
    const n = nextObjectNumber(base);
    const report = await expectNotValid(appendRevision(base, [{ num: n, body: streamBody(PAY) }, { num: pageRef.objectNumber, body: edited(page, { Contents: `${n} 0 R` }) }]));
    expect(report.signatures.map((s) => s.status)).toEqual(["changed", "changed", "changed"]);
  });
});

describe("Shadow attacks", () => {
  /** The original with a hidden object (not referenced from any page) added before signing. */
  async function signedWithShadow(): Promise<{ bytes: Uint8Array; shadow: number }> {
    const shadow = nextObjectNumber(genuine.original);
    const prepared = appendRevision(genuine.original, [{ num: shadow, body: streamBody(PAY) }]);
    const signed = await genuine.signLongTerm(prepared);
    // the control: as signed, the file is valid
    expect((await verify(signed)).verdict).toBe("valid");
    return { bytes: signed, shadow };
  }

  test("hide: a later revision points the page at content that was hidden in the signed revision", async () => {
    const { bytes, shadow } = await signedWithShadow();
    const { page, pageRef } = view(bytes);
    const report = await expectNotValid(appendRevision(bytes, [{ num: pageRef.objectNumber, body: edited(page, { Contents: `${shadow} 0 R` }) }]));
    expect(report.signatures[0].changesAfter).toContainEqual(expect.objectContaining({ kind: "page-content", object: pageRef.objectNumber }));
  });

  test("replace: a later revision overrides an object of the signed revision under the same number", async () => {
    const { bytes, shadow } = await signedWithShadow();
    const report = await expectNotValid(appendRevision(bytes, [{ num: shadow, body: streamBody("BT /F1 24 Tf 72 300 Td (otro) Tj ET") }]));
    expect(report.signatures[0].changesAfter).toContainEqual(expect.objectContaining({ object: shadow, allowed: false }));
  });

  test("hide-and-replace: a later xref points an existing object number at the hidden object's bytes", async () => {
    const { bytes, shadow } = await signedWithShadow();
    const { page, pageRef } = view(bytes);
    const contents = page.get(PDFName.of("Contents")) as PDFRef;
    const forged = appendRevision(bytes, [{ num: nextObjectNumber(bytes), body: "<< >>" }]);
    const report = await expectNotValid(patchXref(forged, new Map([[contents.objectNumber, scanObjects(Buffer.from(bytes)).get(shadow)!]])));
    expect(report.signatures[0].changesAfter.some((c) => !c.allowed)).toBe(true);
    expect(pageRef).toBeDefined();
  });
});

describe("Trust", () => {
  test("a foreign self-signed certificate: intact but not trusted here, never valid", async () => {
    const self = await createCertificate({
      subject: [{ CN: ["Mallory Self"] }],
      notBefore: new Date(Date.now() - 60_000),
      notAfter: new Date(Date.now() + 86_400_000),
      extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)],
    });
    const signed = await signPdf(genuine.original, { sign: (digest) => signCadesDetached({ digest, signer: { ...self, chainDer: [] } }), subFilter: "ETSI.CAdES.detached" });
    const report = await verify(signed);
    expect(report.signatures[0]).toMatchObject({ integrity: "intact", trusted: false, status: "untrusted" });
    expect(report.signatures[0].chain.reason).toContain("self-signed");
    expect(report.verdict).toBe("untrusted");
  });

  test("a CA certificate used as a signer without the right key usage is refused (our issuing CA signs a PDF)", async () => {
    const signed = await signPdf(genuine.original, { sign: (digest) => signCadesDetached({ digest, signer: { ...genuine.pki.issuing, chainDer: [] } }) });
    const report = await verify(signed);
    expect(report.signatures[0].status).toBe("invalid");
    expect(report.signatures[0].chain.reason).toContain("keyUsage");
  });

  test("a signature time-stamp swapped in from another signature (the token lies in the unsigned gap): invalid", async () => {
    const base = genuine.signedTwice;
    const first = readSignedData(contentsOf(base, 0));
    const second = pkijs.ContentInfo.fromBER(new Uint8Array(contentsOf(base, 1)));
    const signedData = new pkijs.SignedData({ schema: second.content });
    const attribute = signedData.signerInfos[0].unsignedAttrs!.attributes[0];
    attribute.values = [asn1js.fromBER(new Uint8Array(first.timeStampTokenDer!)).result];
    const swapped = new pkijs.ContentInfo({ contentType: second.contentType, content: signedData.toSchema(true) }).toSchema().toBER(false);
    const report = await verify(replaceContents(base, 1, new Uint8Array(swapped)));
    expect(report.signatures[1]).toMatchObject({ status: "invalid" });
    expect(report.signatures[1].timeStamp?.matchesSignature ?? false).toBe(false);
  });
});

/** Rewrites the entries of the last xref table so that `entries` point where the attacker wants. */
function patchXref(bytes: Uint8Array, entries: Map<number, number>): Uint8Array {
  const text = Buffer.from(bytes).toString("latin1");
  const start = text.lastIndexOf("\nxref\n") + 1;
  const trailer = text.indexOf("trailer", start);
  let table = "xref\n";
  for (const [num, at] of [...entries].sort(([a], [b]) => a - b)) table += `${num} 1\n${String(at).padStart(10, "0")} 00000 n\r\n`;
  const tail = text.slice(trailer).replace(/startxref\s+\d+/, `startxref\n${start}`);
  return new Uint8Array(Buffer.from(text.slice(0, start) + table + tail, "latin1"));
}

function contentsOf(bytes: Uint8Array, index: number): Uint8Array {
  const sig = locateSignature(bytes, index);
  return new Uint8Array(Buffer.from(Buffer.from(bytes).toString("latin1", sig.contentsStart + 1, sig.contentsEnd - 1), "hex"));
}

/** Writes another CMS into the `index`-th /Contents, zero-padded like the original. */
function replaceContents(bytes: Uint8Array, index: number, cms: Uint8Array): Uint8Array {
  const sig = locateSignature(bytes, index);
  const width = sig.contentsEnd - sig.contentsStart - 2;
  return replaceBytes(bytes, sig.contentsStart + 1, Buffer.from(cms).toString("hex").toUpperCase().padEnd(width, "0"));
}
