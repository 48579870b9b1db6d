import { AppError } from "@/lib/errors";
import type { UploadedFile } from "@/lib/http/parse-multipart";
import { inspectPdf } from "@/lib/pdf/inspect-pdf";
import { toAppError } from "@/lib/stamp-signing/to-app-error";

export type InspectedPdf = { index: number; name: string; pages: number; bytes: Uint8Array };

const PDF_FIELDS = new Set(["pdfFiles", "pdfFiles[]"]);

/** The uploaded pdfFiles, in order, each checked by the PDF engine (damaged, encrypted, DocMDP P=1 refused). */
export function inspectUploadedPdfs(files: UploadedFile[]): InspectedPdf[] {
  const pdfs = files.filter((f) => PDF_FIELDS.has(f.field));
  if (pdfs.length === 0) throw new AppError("VALIDATION", "se requiere al menos un archivo PDF", "pdfFiles");
  return pdfs.map((file, index) => {
    const field = `pdfFiles.${index}`;
    let pages: number;
    try {
      const inspection = inspectPdf(file.bytes);
      if (inspection.docMdpPermission === 1) {
        throw new AppError("CERTIFIED_NO_CHANGES", "el PDF está certificado y no admite cambios (DocMDP P=1)", field);
      }
      pages = inspection.pageCount;
    } catch (error) {
      throw toAppError(error, field);
    }
    if (pages < 1) throw new AppError("INVALID_PDF", "el PDF no tiene páginas", field);
    return { index, name: displayName(file.filename, index), pages, bytes: file.bytes };
  });
}

function displayName(filename: string, index: number): string {
  const base = filename.split(/[\\/]/).pop()?.replace(/[\u0000-\u001f]/g, "").trim() ?? "";
  return (base || `documento-${index + 1}.pdf`).slice(0, 255);
}
