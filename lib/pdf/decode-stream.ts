import zlib from "node:zlib";
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFObject } from "pdf-lib";
import { invalidPdf, tooComplex } from "@/lib/pdf/errors";

// We only ever decode xref streams and object streams; anything larger is a bomb, not a document.
export const MAX_DECODED_BYTES = 64 * 1024 * 1024;

function numberOf(obj: PDFObject | undefined, fallback: number): number {
  return obj instanceof PDFNumber ? obj.asNumber() : fallback;
}

/**
 * What one document may inflate in all (xref streams, object streams, validation data): bombs hide
 * in many small streams that each stay under the per-stream cap.
 */
export class DecodeBudget {
  private used = 0;

  constructor(readonly limit: number) {}

  /** The usual budget for a file of `size` bytes: a fixed part plus twice the file, at most 256 MB. */
  static forFile(size: number): DecodeBudget {
    return new DecodeBudget(Math.min(256 * 1024 * 1024, 32 * 1024 * 1024 + 2 * size));
  }

  get remaining(): number {
    return Math.max(0, this.limit - this.used);
  }

  spend(bytes: number): void {
    this.used += bytes;
    if (this.used > this.limit) throw tooComplex("streams inflate beyond the document's budget");
  }
}

function inflate(data: Uint8Array, limit: number): Uint8Array {
  try {
    // Z_SYNC_FLUSH tolerates a missing Adler-32 trailer, which real writers sometimes omit.
    return zlib.inflateSync(data, { maxOutputLength: Math.max(1, limit), finishFlush: zlib.constants.Z_SYNC_FLUSH });
  } catch (error) {
    if (error instanceof RangeError || (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      throw tooComplex("stream inflates beyond the limit");
    }
    throw invalidPdf("corrupt Flate stream");
  }
}

function unpredictPng(data: Uint8Array, columns: number, colors: number, bpc: number): Uint8Array {
  const bpp = Math.max(1, Math.ceil((colors * bpc) / 8));
  const rowLength = Math.ceil((columns * colors * bpc) / 8);
  if (rowLength <= 0 || rowLength > MAX_DECODED_BYTES) throw invalidPdf("bad predictor columns");
  const rows = Math.floor(data.length / (rowLength + 1));
  const out = new Uint8Array(rows * rowLength);
  for (let r = 0; r < rows; r++) {
    const filter = data[r * (rowLength + 1)];
    const src = r * (rowLength + 1) + 1;
    const dst = r * rowLength;
    for (let i = 0; i < rowLength; i++) {
      const raw = data[src + i];
      const left = i >= bpp ? out[dst + i - bpp] : 0;
      const up = r > 0 ? out[dst - rowLength + i] : 0;
      const upLeft = r > 0 && i >= bpp ? out[dst - rowLength + i - bpp] : 0;
      let value: number;
      switch (filter) {
        case 0: value = raw; break;
        case 1: value = raw + left; break;
        case 2: value = raw + up; break;
        case 3: value = raw + ((left + up) >> 1); break;
        case 4: {
          const p = left + up - upLeft;
          const pa = Math.abs(p - left), pb = Math.abs(p - up), pc = Math.abs(p - upLeft);
          value = raw + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
          break;
        }
        default: throw invalidPdf("unknown PNG predictor");
      }
      out[dst + i] = value & 0xff;
    }
  }
  return out;
}

/**
 * Decodes the few stream kinds the engine reads (FlateDecode, optionally with a PNG predictor).
 * Other filters are refused: the streams we read are produced by PDF writers that only use Flate.
 */
export function decodeStream(dict: PDFDict, data: Uint8Array, budget?: DecodeBudget): Uint8Array {
  const filterObj = dict.get(PDFName.of("Filter"));
  const filters: PDFObject[] = filterObj instanceof PDFArray ? filterObj.asArray() : filterObj ? [filterObj] : [];
  const parmsObj = dict.get(PDFName.of("DecodeParms"));
  const parmsList: (PDFObject | undefined)[] = parmsObj instanceof PDFArray ? parmsObj.asArray() : [parmsObj];
  if (filters.length > 2) throw tooComplex("too many stream filters");
  let out = data;
  filters.forEach((filter, index) => {
    if (!(filter instanceof PDFName) || (filter.asString() !== "/FlateDecode" && filter.asString() !== "/Fl")) {
      throw invalidPdf(`unsupported filter ${filter.toString()}`);
    }
    // never inflate past what the document has left to spend
    out = inflate(out, Math.min(MAX_DECODED_BYTES, budget ? budget.remaining + 1 : MAX_DECODED_BYTES));
    const parms = parmsList[index];
    if (parms instanceof PDFDict) {
      const predictor = numberOf(parms.get(PDFName.of("Predictor")), 1);
      if (predictor >= 10) {
        out = unpredictPng(
          out,
          numberOf(parms.get(PDFName.of("Columns")), 1),
          numberOf(parms.get(PDFName.of("Colors")), 1),
          numberOf(parms.get(PDFName.of("BitsPerComponent")), 8),
        );
      } else if (predictor !== 1) {
        throw invalidPdf("unsupported predictor");
      }
    }
  });
  budget?.spend(out.length);
  return out;
}
