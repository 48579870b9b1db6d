import { PDFName, PDFRef } from "pdf-lib";
import { Box, Rotation, collectPages } from "@/lib/pdf/collect-pages";
import { PdfError, invalidPdf } from "@/lib/pdf/errors";
import { asPdfError, openLazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { readFormState } from "@/lib/pdf/read-form-state";

export interface PdfPageInfo {
  mediaBox: Box;
  /** Visible box (CropBox clipped to MediaBox; MediaBox when absent). */
  cropBox: Box;
  rotate: Rotation;
}

export interface PdfInspection {
  pageCount: number;
  pages: PdfPageInfo[];
  xrefKind: "table" | "stream";
  /** Signed signature fields (document timestamps included). */
  signatureCount: number;
  docMdpPermission?: 1 | 2 | 3;
  /** Always false: encrypted files throw ENCRYPTED_PDF. */
  encrypted: boolean;
}

/** Reads what callers need before signing, with the same refusals as signPdf. */
export function inspectPdf(bytes: Uint8Array): PdfInspection {
  try {
    const pdf = openLazyPdf(bytes);
    if (pdf.encrypted) throw new PdfError("ENCRYPTED_PDF");
    const catalogRef = pdf.trailer.get(PDFName.of("Root"));
    const catalog = catalogRef instanceof PDFRef ? pdf.lookupDict(catalogRef) : undefined;
    if (!catalog) throw invalidPdf("trailer /Root is not a catalog");
    const { pages } = collectPages(pdf, catalog);
    const form = readFormState(pdf, catalog);
    return {
      pageCount: pages.length,
      pages: pages.map((p) => p.geometry),
      xrefKind: pdf.xrefKind,
      signatureCount: form.signatures.length,
      docMdpPermission: form.docMdpPermission,
      encrypted: false,
    };
  } catch (error) {
    throw asPdfError(error);
  }
}
