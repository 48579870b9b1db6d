import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { PDFArray, PDFName, PDFRef } from "pdf-lib";
import { signPdf } from "@/lib/pdf/sign-pdf";
import { createCertificate } from "@/lib/pki/create-certificate";
import { signCadesDetached } from "@/lib/pki/sign-cms-detached";
import { x509 } from "@/lib/pki/x509-provider";
import type { ChangeKind } from "../classify-revision-changes";
import { readSignedData } from "@/lib/pki/read-signed-data";
import type { IntegrityResult, SignatureStatus } from "../verification-report";
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
} from "./forge-pdf";
import type { GenuineOutputs } from "./make-genuine-outputs";

/**
 * Every published attack class on PDF signatures (PDF-Insecurity: "1 Trillion Dollar Refund", 2019;
 * "Shadow Attacks", 2021), built from genuine outputs of our engine. The tests run each through the
 * verifier; docs/verification.md lists them. `expected` is the status the attacked (first) signature
 * must get; no attack may ever leave the file "valid".
 */
export type Attack = {
  attackClass: "Universal Signature Forgery" | "Signature Wrapping" | "Incremental Saving" | "Shadow" | "Trust" | "Time-stamp";
  name: string;
  forge: (genuine: GenuineOutputs) => Promise<Uint8Array> | Uint8Array;
  expected: SignatureStatus;
  /** Disallowed change kinds the first signature must report. */
  changes?: ChangeKind[];
  integrity?: IntegrityResult;
  /** Which signature the attack targets (default the first). */
  target?: number;
};

// a black bar beside the words: visible whatever fonts the page has (an attacker makes sure it shows)
export const PAY = "q 0 g 72 380 360 12 re f Q BT /F1 24 Tf 72 400 Td (Pagar 1.000.000 a Mallory) Tj ET";
/** An appearance that paints `rect` white and writes over it: what covers signed words. */
export const COVER = (width: number, height: number) =>
  streamBody(`q 1 g 0 0 ${width} ${height} re f 0 g 4 4 ${width - 8} 10 re f Q BT /Helv 14 Tf 4 ${height - 18} Td (Pagar 1.000.000 a Mallory) Tj ET`, `/Type /XObject /Subtype /Form /BBox [0 0 ${width} ${height}] /Resources << /Font << /Helv << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>`);
// where the signed words of the fixture's first page are (libreoffice74-contrato-a4: text from y 556 to 785)
export const SIGNED_TEXT_RECT = [60, 690, 540, 790] as const;

/** New page text in an unsigned revision: the plain Incremental Saving Attack. */
export function withNewPageText(base: Uint8Array, options: { prev?: boolean; startxrefOnly?: boolean } = {}): Uint8Array {
  const { page, pageRef } = view(base);
  const n = nextObjectNumber(base);
  return appendRevision(base, [{ num: n, body: streamBody(PAY) }, { num: pageRef.objectNumber, body: edited(page, { Contents: `${n} 0 R` }) }], options);
}

const byteRangeOf = (b: Uint8Array) => locateSignature(b).byteRange;

export const attacks: Attack[] = [
  { attackClass: "Universal Signature Forgery", name: "/Contents zeroed", expected: "invalid", integrity: "unreadable", forge: ({ stamp: b }) => {
    const at = locateSignature(b);
    return replaceBytes(b, at.contentsStart + 1, "0".repeat(at.contentsEnd - at.contentsStart - 2));
  } },
  { attackClass: "Universal Signature Forgery", name: "/ByteRange missing", expected: "invalid", forge: ({ stamp: b }) => replaceBytes(b, locateSignature(b).byteRangeStart, "/ByteRangX") },
  { attackClass: "Universal Signature Forgery", name: "/ByteRange [0 0 0 0]", expected: "invalid", forge: ({ stamp: b }) => rewriteByteRange(b, [0, 0, 0, 0]) },
  { attackClass: "Universal Signature Forgery", name: "/ByteRange not starting at 0", expected: "invalid", forge: ({ stamp: b }) => rewriteByteRange(b, [1, byteRangeOf(b)[1] - 1, ...byteRangeOf(b).slice(2)]) },
  { attackClass: "Universal Signature Forgery", name: "/ByteRange parts overlapping", expected: "invalid", forge: ({ stamp: b }) => {
    const [, , s2, l2] = byteRangeOf(b);
    return rewriteByteRange(b, [0, s2 + 10, s2, l2]);
  } },
  { attackClass: "Universal Signature Forgery", name: "/ByteRange past the end of the file", expected: "invalid", forge: ({ stamp: b }) => {
    const [, l1, s2, l2] = byteRangeOf(b);
    return rewriteByteRange(b, [0, l1, s2, l2 + b.length]);
  } },
  { attackClass: "Universal Signature Forgery", name: "new page text plus a signature field whose dictionary has no /Contents", expected: "changed", changes: ["page-content"], forge: ({ stamp: base }) => {
    const { page, pageRef } = view(base);
    const n = nextObjectNumber(base);
    return appendRevision(base, [
      { num: n, body: streamBody(PAY) },
      { num: n + 1, body: "<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /ByteRange [0 10 20 30] >>" },
      { num: n + 2, body: `<< /FT /Sig /T (Forged) /V ${n + 1} 0 R /Type /Annot /Subtype /Widget /Rect [0 0 0 0] /P ${pageRef} >>` },
      { num: pageRef.objectNumber, body: edited(page, { Contents: `${n} 0 R` }) },
      ...addToFields(base, n + 2),
    ]);
  } },

  { attackClass: "Signature Wrapping", name: "objects hidden in the /Contents gap, reached through a new cross-reference", expected: "invalid", integrity: "ranges-invalid", forge: ({ stamp: base }) => {
    const sig = locateSignature(base);
    const hex = Buffer.from(base).toString("latin1", sig.contentsStart + 1, sig.contentsEnd - 1).replace(/0+$/, "");
    const cmsHex = hex.length % 2 ? `${hex}0` : hex;
    const { page, pageRef } = view(base);
    const n = nextObjectNumber(base);
    // the hidden objects sit in a string value, so the signature dictionary still parses
    const hidden = ` /Junk (\n${n} 0 obj\n${streamBody(PAY)}\nendobj\n${pageRef.objectNumber} 0 obj\n${edited(page, { Contents: `${n} 0 R` })}\nendobj\n) /Junk2 <`;
    const filler = sig.contentsEnd - sig.contentsStart - 2 - cmsHex.length - hidden.length - 1;
    if (filler <= 0) throw new Error("the hidden objects do not fit in the gap");
    // still a '<' at the start and a '>' at the end of the gap, as a naive check expects
    const wrapped = replaceBytes(base, sig.contentsStart, `<${cmsHex}>${hidden}${" ".repeat(filler)}>`);
    const objects = scanObjects(Buffer.from(wrapped));
    const forged = appendRevision(wrapped, [{ num: n + 1, body: "<< >>" }]);
    return pointXrefAt(forged, new Map([[n, objects.get(n)!], [pageRef.objectNumber, objects.get(pageRef.objectNumber)!]]));
  } },
  { attackClass: "Signature Wrapping", name: "signed bytes moved behind a wider gap, a new signature dictionary claiming them", expected: "invalid", forge: ({ bare: base }) => {
    const [, l1, s2, l2] = byteRangeOf(base);
    const { value, fieldRef, field } = firstSignatureField(base);
    const n = nextObjectNumber(base);
    const insertion = `\n${n} 0 obj\n${streamBody(PAY)}\nendobj\n%>`;
    const movedStart = s2 + insertion.length;
    const wrapped = new Uint8Array(Buffer.concat([Buffer.from(base.subarray(0, s2)), Buffer.from(insertion, "latin1"), Buffer.from(base.subarray(s2, s2 + l2))]));
    // the moved second part carries the old xref at the wrong offsets: a fresh full xref is what the attacker writes
    return appendRevision(wrapped, [
      { num: n + 1, body: edited(value, { ByteRange: `[0 ${l1} ${movedStart} ${l2}]` }) },
      { num: fieldRef.objectNumber, body: edited(field, { V: `${n + 1} 0 R` }) },
    ], { trailerFrom: base, prev: false });
  } },

  { attackClass: "Incremental Saving", name: "new page content", expected: "changed", changes: ["page-content"], forge: ({ stamp }) => withNewPageText(stamp) },
  { attackClass: "Incremental Saving", name: "an annotation added whose appearance covers signed text", expected: "changed", changes: ["visible-change"], forge: ({ stamp: base }) => {
    const { pdf, page, pageRef } = view(base);
    const n = nextObjectNumber(base);
    const annots = pdf.lookup(page.get(PDFName.of("Annots"))) as PDFArray;
    const [x0, y0, x1, y1] = SIGNED_TEXT_RECT;
    return appendRevision(base, [
      { num: n + 1, body: COVER(x1 - x0, y1 - y0) },
      { num: n, body: `<< /Type /Annot /Subtype /FreeText /Rect [${SIGNED_TEXT_RECT.join(" ")}] /Contents (Pagar 1.000.000) /DA (/Helv 18 Tf 0 g) /AP << /N ${n + 1} 0 R >> >>` },
      { num: pageRef.objectNumber, body: edited(page, { Annots: `[${annots.asArray().map(String).join(" ")} ${n} 0 R]` }) },
    ]);
  } },
  { attackClass: "Incremental Saving", name: "overlay: a signature widget with an appearance and no signature", expected: "changed", changes: ["visible-change"], forge: ({ stamp: base }) => {
    const { pdf, page, pageRef } = view(base);
    const annots = pdf.lookup(page.get(PDFName.of("Annots"))) as PDFArray;
    const n = nextObjectNumber(base);
    return appendRevision(base, [
      { num: n, body: COVER(600, 800) },
      { num: n + 1, body: `<< /FT /Sig /T (Overlay) /Type /Annot /Subtype /Widget /Rect [0 0 600 800] /P ${pageRef} /AP << /N ${n} 0 R >> >>` },
      { num: pageRef.objectNumber, body: edited(page, { Annots: `[${annots.asArray().map(String).join(" ")} ${n + 1} 0 R]` }) },
      ...addToFields(base, n + 1),
    ]);
  } },
  { attackClass: "Incremental Saving", name: "objects appended without any cross-reference entry", expected: "changed", changes: ["unaccounted-bytes"], forge: ({ stamp }) => withNewPageText(stamp, { startxrefOnly: true }) },
  { attackClass: "Incremental Saving", name: "a fresh cross-reference without /Prev", expected: "invalid", forge: ({ stamp }) => withNewPageText(stamp, { prev: false }) },
  { attackClass: "Incremental Saving", name: "the stamp's appearance XObject swapped", expected: "changed", changes: ["object-changed"], forge: ({ stamp: base }) => {
    const { pdf } = view(base);
    const { field } = firstSignatureField(base);
    const appearance = pdf.lookupDict(field.get(PDFName.of("AP")))!.get(PDFName.of("N")) as PDFRef;
    return appendRevision(base, [{ num: appearance.objectNumber, body: streamBody(PAY, "/Type /XObject /Subtype /Form /BBox [0 0 200 70]") }]);
  } },
  { attackClass: "Incremental Saving", name: "the signature dictionary rewritten later", expected: "invalid", integrity: "ranges-invalid", forge: ({ stamp: base }) => {
    const { value, valueRef } = firstSignatureField(base);
    return appendRevision(base, [{ num: valueRef.objectNumber, body: edited(value, { Reason: "(otra cosa)" }) }]);
  } },
  { attackClass: "Incremental Saving", name: "new page content on the two-signer B-LTA document", expected: "changed", changes: ["page-content"], forge: ({ twoSignersLta }) => withNewPageText(twoSignersLta) },

  { attackClass: "Shadow", name: "hide: the page pointed at content hidden in the signed revision", expected: "changed", changes: ["page-content"], forge: async (genuine) => {
    const { bytes, shadow } = await signedWithShadow(genuine);
    const { page, pageRef } = view(bytes);
    return appendRevision(bytes, [{ num: pageRef.objectNumber, body: edited(page, { Contents: `${shadow} 0 R` }) }]);
  } },
  { attackClass: "Shadow", name: "replace: an object of the signed revision overridden under its number", expected: "changed", changes: ["object-changed"], forge: async (genuine) => {
    const { bytes, shadow } = await signedWithShadow(genuine);
    return appendRevision(bytes, [{ num: shadow, body: streamBody("BT /F1 24 Tf 72 300 Td (otro) Tj ET") }]);
  } },
  { attackClass: "Shadow", name: "hide-and-replace: a later xref points a page's content at the hidden object's bytes", expected: "changed", forge: async (genuine) => {
    const { bytes, shadow } = await signedWithShadow(genuine);
    const contents = view(bytes).page.get(PDFName.of("Contents")) as PDFRef;
    const forged = appendRevision(bytes, [{ num: nextObjectNumber(bytes), body: "<< >>" }]);
    return pointXrefAt(forged, new Map([[contents.objectNumber, scanObjects(Buffer.from(bytes)).get(shadow)!]]));
  } },

  { attackClass: "Trust", name: "a foreign self-signed certificate", expected: "untrusted", forge: async ({ original }) => {
    const self = await createCertificate({
      subject: [{ CN: ["Mallory Self"] }],
      notBefore: new Date(Date.now() - 60_000),
      notAfter: new Date(Date.now() + 86_400_000),
      extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)],
    });
    return signPdf(original, { sign: (digest) => signCadesDetached({ digest, signer: { ...self, chainDer: [] } }) });
  } },
  { attackClass: "Trust", name: "our issuing CA's key used to sign a document (keyUsage forbids it)", expected: "invalid", forge: ({ original, pki }) =>
    signPdf(original, { sign: (digest) => signCadesDetached({ digest, signer: { ...pki.issuing, chainDer: [] } }) }) },
  { attackClass: "Time-stamp", name: "a signature time-stamp swapped in from another signature (it lies in the unsigned gap)", expected: "invalid", target: 1, forge: ({ signedTwice: base }) => {
    const first = readSignedData(contentsOf(base, 0));
    const second = pkijs.ContentInfo.fromBER(new Uint8Array(contentsOf(base, 1)));
    const signedData = new pkijs.SignedData({ schema: second.content });
    signedData.signerInfos[0].unsignedAttrs!.attributes[0].values = [asn1js.fromBER(new Uint8Array(first.timeStampTokenDer!)).result];
    const swapped = new pkijs.ContentInfo({ contentType: second.contentType, content: signedData.toSchema(true) }).toSchema().toBER(false);
    return replaceContents(base, 1, new Uint8Array(swapped));
  } },
];

/** The original with a hidden object (referenced from nowhere) added before it was signed. */
async function signedWithShadow(genuine: GenuineOutputs): Promise<{ bytes: Uint8Array; shadow: number }> {
  const shadow = nextObjectNumber(genuine.original);
  const prepared = appendRevision(genuine.original, [{ num: shadow, body: streamBody(PAY) }]);
  return { bytes: await genuine.signLongTerm(prepared), shadow };
}

export async function signedWithShadowForControl(genuine: GenuineOutputs): Promise<Uint8Array> {
  return (await signedWithShadow(genuine)).bytes;
}

/** Rewrites the entries of the last xref table so that `entries` point where the attacker wants. */
function pointXrefAt(bytes: Uint8Array, entries: Map<number, number>): Uint8Array {
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
