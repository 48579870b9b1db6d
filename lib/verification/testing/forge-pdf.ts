import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, type PDFObject } from "pdf-lib";
import { collectPages } from "@/lib/pdf/collect-pages";
import { openLazyPdf, type LazyPdf } from "@/lib/pdf/open-lazy-pdf";

/** Test-only tools an attacker would use on a signed PDF: append revisions, rewrite bytes in place. */

export type ForgedObject = { num: number; body: string | Buffer };

const latin = (text: string) => Buffer.from(text, "latin1");

export function view(bytes: Uint8Array): { pdf: LazyPdf; catalogRef: PDFRef; catalog: PDFDict; pageRef: PDFRef; page: PDFDict } {
  const pdf = openLazyPdf(bytes);
  const catalogRef = pdf.trailer.get(PDFName.of("Root")) as PDFRef;
  const catalog = pdf.lookupDict(catalogRef)!;
  const pageRef = collectPages(pdf, catalog).pages[0].ref;
  return { pdf, catalogRef, catalog, pageRef, page: pdf.lookupDict(pageRef)! };
}

export function streamBody(content: string, dict = ""): string {
  return `<< ${dict} /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`;
}

/** A copy of `dict` (a LazyPdf object) with `changes` applied, serialised. */
export function edited(dict: PDFDict, changes: Record<string, PDFObject | string>): string {
  const copy = dict.clone();
  const raw: string[] = [];
  for (const [key, value] of Object.entries(changes)) {
    if (typeof value === "string") {
      copy.delete(PDFName.of(key));
      raw.push(`/${key} ${value}`);
    } else copy.set(PDFName.of(key), value);
  }
  const text = copy.toString();
  return raw.length ? `${text.slice(0, -2)}${raw.join("\n")}\n>>` : text;
}

/** Appends objects and a classic xref section (trailer values read from `trailerFrom`); `prev: false` writes a fresh xref without /Prev that lists every object it can find. */
export function appendRevision(bytes: Uint8Array, objects: ForgedObject[], { prev = true, startxrefOnly = false, trailerFrom = bytes } = {}): Uint8Array {
  const pdf = openLazyPdf(trailerFrom);
  const parts: Buffer[] = [Buffer.from(bytes), latin("\n")];
  let offset = bytes.length + 1;
  const offsets = new Map<number, number>();
  for (const object of objects) {
    const chunk = Buffer.concat([latin(`${object.num} 0 obj\n`), typeof object.body === "string" ? latin(object.body) : object.body, latin("\nendobj\n")]);
    offsets.set(object.num, offset);
    parts.push(chunk);
    offset += chunk.length;
  }
  if (startxrefOnly) {
    // objects appended with no cross-reference entry; the old startxref is repeated so the file still "ends" well
    parts.push(latin(`startxref\n${pdf.startxref}\n%%EOF\n`));
    return new Uint8Array(Buffer.concat(parts));
  }
  const listed = prev ? offsets : new Map([...scanObjects(Buffer.concat(parts))]);
  const size = Math.max(pdf.size, ...[...listed.keys()].map((num) => num + 1));
  const rows = [...listed.entries()].sort(([a], [b]) => a - b);
  let xref = "xref\n";
  if (!prev) xref += `0 1\n0000000000 65535 f\r\n`;
  for (const [num, at] of rows) xref += `${num} 1\n${String(at).padStart(10, "0")} 00000 n\r\n`;
  const root = pdf.trailer.get(PDFName.of("Root"))!.toString();
  xref += `trailer\n<< /Size ${size} /Root ${root}${prev ? ` /Prev ${pdf.startxref}` : ""} >>\nstartxref\n${offset}\n%%EOF\n`;
  parts.push(latin(xref));
  return new Uint8Array(Buffer.concat(parts));
}

/** Every "N G obj" header in the file, the last one of each number winning (as repairing readers do). */
export function scanObjects(bytes: Buffer): Map<number, number> {
  const text = bytes.toString("latin1");
  const found = new Map<number, number>();
  for (const match of text.matchAll(/(?<=^|[\r\n\s])(\d+) 0 obj\b/g)) found.set(Number(match[1]), match.index!);
  return found;
}

export type SignatureBytes = { byteRange: number[]; byteRangeStart: number; byteRangeEnd: number; contentsStart: number; contentsEnd: number };

/** Where the `index`-th signature's /ByteRange array and /Contents string are, found by scanning. */
export function locateSignature(bytes: Uint8Array, index = 0): SignatureBytes {
  const text = Buffer.from(bytes).toString("latin1");
  // our writer pads the array with spaces after "]" so the final numbers fit
  const matches = [...text.matchAll(/\/ByteRange\s*\[([\d\s]+)\] */g)];
  const match = matches[index];
  const byteRange = match[1].trim().split(/\s+/).map(Number);
  return {
    byteRange,
    byteRangeStart: match.index!,
    byteRangeEnd: match.index! + match[0].length,
    contentsStart: byteRange[1],
    contentsEnd: byteRange[2],
  };
}

/** Rewrites the `index`-th /ByteRange in place, padded to the same length. */
export function rewriteByteRange(bytes: Uint8Array, values: number[], index = 0): Uint8Array {
  const at = locateSignature(bytes, index);
  const width = at.byteRangeEnd - at.byteRangeStart;
  const replacement = `/ByteRange [${values.join(" ")}]`;
  if (replacement.length > width) throw new Error("the new /ByteRange does not fit");
  const copy = Buffer.from(bytes);
  copy.write(replacement.padEnd(width, " "), at.byteRangeStart, "latin1");
  return new Uint8Array(copy);
}

export function replaceBytes(bytes: Uint8Array, at: number, text: string): Uint8Array {
  const copy = Buffer.from(bytes);
  copy.write(text, at, "latin1");
  return new Uint8Array(copy);
}

/** The signature field, its widget and the /V dictionary of the first signature, as the final revision sees them. */
export function firstSignatureField(bytes: Uint8Array): { fieldRef: PDFRef; field: PDFDict; valueRef: PDFRef; value: PDFDict } {
  const { pdf, catalog } = view(bytes);
  const acroForm = pdf.lookupDict(catalog.get(PDFName.of("AcroForm")))!;
  const fields = pdf.lookup(acroForm.get(PDFName.of("Fields"))) as PDFArray;
  for (const ref of fields.asArray()) {
    const field = pdf.lookupDict(ref);
    if (field?.get(PDFName.of("FT")) === PDFName.of("Sig") && field.get(PDFName.of("V")) instanceof PDFRef) {
      const valueRef = field.get(PDFName.of("V")) as PDFRef;
      return { fieldRef: ref as PDFRef, field, valueRef, value: pdf.lookupDict(valueRef)! };
    }
  }
  throw new Error("no signature field");
}

export function nextObjectNumber(bytes: Uint8Array): number {
  return openLazyPdf(bytes).size;
}

export function streamOf(pdf: LazyPdf, ref: PDFObject | undefined): PDFRawStream | undefined {
  const value = pdf.lookup(ref);
  return value instanceof PDFRawStream ? value : undefined;
}

/** The edits that add field `num` to the interactive form's /Fields, wherever the form dictionary lives. */
export function addToFields(bytes: Uint8Array, num: number): ForgedObject[] {
  const { pdf, catalog, catalogRef } = view(bytes);
  const acroFormRef = catalog.get(PDFName.of("AcroForm"));
  const acroForm = pdf.lookupDict(acroFormRef)!;
  const fields = pdf.lookup(acroForm.get(PDFName.of("Fields"))) as PDFArray;
  const withField = edited(acroForm, { Fields: `[${fields.asArray().map(String).join(" ")} ${num} 0 R]` });
  if (acroFormRef instanceof PDFRef) return [{ num: acroFormRef.objectNumber, body: withField }];
  return [{ num: catalogRef.objectNumber, body: edited(catalog, { AcroForm: withField }) }];
}
