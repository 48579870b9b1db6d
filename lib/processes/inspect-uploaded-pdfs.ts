import { AppError } from "@/lib/errors";
import type { UploadedFile } from "@/lib/request-reading/parse-multipart";
import type { AcceptedPdf } from "@/lib/pdf/accept-pdf";
import { toAppError } from "@/lib/engine-errors";

/** `repaired`: the upload's structure was damaged and `bytes` is its rebuilt copy. */
export type InspectedPdf = { index: number; name: string; pages: number; bytes: Uint8Array; repaired: boolean };

const PDF_FIELDS = new Set(["pdfFiles", "pdfFiles[]"]);

/**
 * The uploaded pdfFiles, in order, each checked by the PDF engine: encrypted and DocMDP P=1 files are
 * refused; a damaged one is rebuilt when it carries no signatures (see acceptPdf).
 */
export async function inspectUploadedPdfs(files: UploadedFile[], deps: { accept: (bytes: Uint8Array) => Promise<AcceptedPdf> }): Promise<InspectedPdf[]> {
  const pdfs = files.filter((f) => PDF_FIELDS.has(f.field));
  if (pdfs.length === 0) throw new AppError("VALIDATION", "se requiere al menos un archivo PDF", "pdfFiles");
  const inspected: InspectedPdf[] = [];
  for (const [index, file] of pdfs.entries()) {
    const field = `pdfFiles.${index}`;
    let pages: number;
    let accepted;
    try {
      accepted = await deps.accept(file.bytes);
      const inspection = accepted.inspection;
      if (inspection.docMdpPermission === 1) {
        throw new AppError("CERTIFIED_NO_CHANGES", "el PDF está certificado y no admite cambios (DocMDP P=1)", field);
      }
      pages = inspection.pageCount;
    } catch (error) {
      throw toAppError(error, field);
    }
    if (pages < 1) throw new AppError("INVALID_PDF", "el PDF no tiene páginas", field);
    inspected.push({ index, name: displayName(file.filename, index), pages, bytes: accepted.bytes, repaired: accepted.repaired });
  }
  return inspected;
}

function displayName(filename: string, index: number): string {
  const base = filename.split(/[\\/]/).pop()?.replace(/[\u0000-\u001f]/g, "").trim() ?? "";
  return (base || `documento-${index + 1}.pdf`).slice(0, 255);
}
