import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFRawStream, PDFRef, PDFString, type PDFObject } from "pdf-lib";
import { decodeStream } from "@/lib/pdf/decode-stream";
import { PdfError, tooComplex } from "@/lib/pdf/errors";
import type { LazyPdf } from "@/lib/pdf/open-lazy-pdf";

// Objects visited for one comparison: writers re-number a font or a resource dictionary, not a whole document.
const MAX_VISITED = 2_000;
// Stream entries that say how bytes are stored, not what they hold.
const STORAGE_KEYS = new Set(["Length", "Filter", "DecodeParms", "DL"]);

/**
 * Whether `a` (read in `before`) and `b` (read in `after`) say the same thing to a reader: dictionaries
 * by their keys whatever the order, numbers by value, strings by their bytes, streams by their decoded
 * data, and references to other object numbers by what those objects hold (writers re-number objects
 * when they sign). A reference to the same number is the same: if that object changed, the revision
 * lists it and it is judged on its own. Anything beyond the limits counts as different.
 */
export function sameContent(a: PDFObject | undefined, b: PDFObject | undefined, before: LazyPdf, after: LazyPdf, budget?: { left: number }): boolean {
  const visited = new Set<string>();
  const same = (x: PDFObject | undefined, y: PDFObject | undefined): boolean => {
    if (x === y) return true;
    if (x === undefined || y === undefined) return false;
    if (x instanceof PDFRef || y instanceof PDFRef) {
      if (x instanceof PDFRef && y instanceof PDFRef && x.objectNumber === y.objectNumber && x.generationNumber === y.generationNumber) return true;
      const key = `${x.toString()}|${y.toString()}`;
      if (visited.has(key)) return true;
      visited.add(key);
      if (visited.size > MAX_VISITED) throw new ComparisonTooLarge();
      // every comparison of the file draws on one budget: a hostile file cannot multiply them
      if (budget && --budget.left < 0) throw tooComplex("too many objects to compare");
      return same(resolve(before, x), resolve(after, y));
    }
    if (x instanceof PDFRawStream || y instanceof PDFRawStream) {
      if (!(x instanceof PDFRawStream && y instanceof PDFRawStream)) return false;
      return sameDict(x.dict, y.dict, STORAGE_KEYS) && sameStreamData(x, y, after);
    }
    if (x instanceof PDFDict || y instanceof PDFDict) return x instanceof PDFDict && y instanceof PDFDict && sameDict(x, y);
    if (x instanceof PDFArray || y instanceof PDFArray) {
      if (!(x instanceof PDFArray && y instanceof PDFArray) || x.size() !== y.size()) return false;
      return x.asArray().every((item, i) => same(item, y.get(i)));
    }
    if (x instanceof PDFNumber || y instanceof PDFNumber) return x instanceof PDFNumber && y instanceof PDFNumber && x.asNumber() === y.asNumber();
    if ((x instanceof PDFString || x instanceof PDFHexString) && (y instanceof PDFString || y instanceof PDFHexString)) return Buffer.from(x.asBytes()).equals(Buffer.from(y.asBytes()));
    return x.toString() === y.toString();
  };
  const sameDict = (x: PDFDict, y: PDFDict, ignored?: Set<string>): boolean => {
    const keys = new Set([...x.keys(), ...y.keys()].map((key) => key.decodeText()).filter((key) => !ignored?.has(key)));
    return [...keys].every((key) => same(x.get(PDFName.of(key)), y.get(PDFName.of(key))));
  };
  try {
    return same(a, b);
  } catch (error) {
    if (error instanceof PdfError && error.code === "PDF_TOO_COMPLEX") throw error;
    // too large to compare, or undecodable: a difference, judged as such
    return false;
  }
}

class ComparisonTooLarge extends Error {}

function resolve(pdf: LazyPdf, ref: PDFObject): PDFObject | undefined {
  return ref instanceof PDFRef ? pdf.getObject(ref) : ref;
}

function sameStreamData(x: PDFRawStream, y: PDFRawStream, pdf: LazyPdf): boolean {
  const rawX = x.getContents();
  const rawY = y.getContents();
  if (Buffer.from(rawX).equals(Buffer.from(rawY)) && sameStorage(x.dict, y.dict)) return true;
  // the same data stored another way (re-compressed); decoding draws on the file's budget
  return Buffer.from(decodeStream(x.dict, rawX, pdf.decodeBudget)).equals(Buffer.from(decodeStream(y.dict, rawY, pdf.decodeBudget)));
}

function sameStorage(x: PDFDict, y: PDFDict): boolean {
  return ["Filter", "DecodeParms"].every((key) => x.get(PDFName.of(key))?.toString() === y.get(PDFName.of(key))?.toString());
}
