import { PDFArray, PDFName, PDFRawStream, PDFRef } from "pdf-lib";
import { decodeStream } from "@/lib/pdf/decode-stream";
import type { LazyPdf } from "@/lib/pdf/open-lazy-pdf";
import type { ValidationMaterial } from "./find-revocation-status";

const MAX_ITEMS_PER_KIND = 512;
const MAX_TOTAL_BYTES = 32 * 1024 * 1024;

/** Certificates, CRLs and OCSP responses of the document security store (/DSS) of `pdf`, if any. */
export function readDssMaterial(pdf: LazyPdf): ValidationMaterial {
  const material: ValidationMaterial = { certificatesDer: [], crlsDer: [], ocspsDer: [] };
  try {
    const root = pdf.trailer.get(PDFName.of("Root"));
    const dss = pdf.lookupDict(root instanceof PDFRef ? pdf.lookupDict(root)?.get(PDFName.of("DSS")) : undefined);
    if (!dss) return material;
    let total = 0;
    const read = (key: string, into: Uint8Array[]) => {
      const array = pdf.lookup(dss.get(PDFName.of(key)));
      if (!(array instanceof PDFArray)) return;
      for (const item of array.asArray().slice(0, MAX_ITEMS_PER_KIND)) {
        const stream = pdf.lookup(item);
        if (!(stream instanceof PDFRawStream)) continue;
        const data = decodeStream(stream.dict, stream.getContents(), pdf.decodeBudget);
        total += data.length;
        if (total > MAX_TOTAL_BYTES) return;
        into.push(data);
      }
    };
    read("Certs", material.certificatesDer);
    read("CRLs", material.crlsDer);
    read("OCSPs", material.ocspsDer);
  } catch {
    // unreadable validation data is no validation data; the level reported says so
  }
  return material;
}
