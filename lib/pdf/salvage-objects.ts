import { PDFContext, PDFDict, PDFInvalidObject, PDFObjectParser } from "pdf-lib";

const MAX_FIXES = 8;
const DELIMITER = /[\s()<>[\]{}/%]/;

/**
 * Objects whose bytes do not parse, read the way qpdf reads them: the token at the parse error
 * becomes `null` (qpdf: "treating as null"), a few times at most, and the object is kept when that
 * yields a dictionary. Without this a flipped byte in the catalog or a page drops the whole object,
 * and the document with it. Returns how many objects were salvaged.
 */
export function salvageObjects(context: PDFContext): number {
  let salvaged = 0;
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFInvalidObject)) continue;
    const dict = salvage(context, Buffer.from((object as unknown as { data: Uint8Array }).data));
    if (dict) {
      context.assign(ref, dict);
      salvaged++;
    }
  }
  return salvaged;
}

function salvage(context: PDFContext, bytes: Buffer): PDFDict | undefined {
  for (let fix = 0; fix <= MAX_FIXES; fix++) {
    try {
      const parsed = PDFObjectParser.forBytes(new Uint8Array(bytes), context).parseObject();
      return parsed instanceof PDFDict ? parsed : undefined;
    } catch (error) {
      const at = /offset=(\d+)/.exec((error as Error).message ?? "");
      if (!at || Number(at[1]) >= bytes.length) return undefined;
      nullify(bytes, Number(at[1]));
    }
  }
  return undefined;
}

/** The token around `at` replaced by `null` (padded with spaces), or by spaces when shorter than that. */
function nullify(bytes: Buffer, at: number): void {
  let start = at;
  let end = at;
  while (start > 0 && !DELIMITER.test(String.fromCharCode(bytes[start - 1]))) start--;
  while (end < bytes.length && !DELIMITER.test(String.fromCharCode(bytes[end]))) end++;
  if (end === start) end = start + 1;
  const replacement = end - start >= 4 ? "null".padEnd(end - start, " ") : " ".repeat(end - start);
  bytes.write(replacement, start, "latin1");
}
