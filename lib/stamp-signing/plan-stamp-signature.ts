import { AppError } from "@/lib/errors";
import type { AcceptedPdf } from "@/lib/pdf/accept-pdf";
import { readStampImage, type StampImage } from "@/lib/stamp/read-stamp-image";
import { stampDimensions } from "@/lib/stamp/draw-stamp";
import type { SignPdfFields } from "./schemas";
import { toAppError } from "@/lib/engine-errors";
import { timed } from "@/lib/runtime/request-timing";

export type StampPlacement = {
  /** 0-based page that receives the stamp; equals the page count when a page is appended. */
  pageIndex: number;
  appendPage?: { width: number; height: number };
  rect: { x: number; y: number; width: number; height: number };
};

export type SigningPlan = {
  pageCount: number;
  placement: StampPlacement | null;
  /** The PDF to sign: the upload, or its rebuilt copy when its structure was damaged. */
  pdf: Uint8Array;
  repaired: boolean;
  /** The stamp image as checked here, handed on so the signing step does not read it again. */
  image?: StampImage;
};

/**
 * Checks a signPDF request against the document before any work is queued, so a bad page, image
 * or position is answered at once (also for async requests).
 */
export async function planStampSignature(
  { fields, upload, image }: { fields: SignPdfFields; upload: Uint8Array; image: Uint8Array | undefined },
  deps: { accept: (bytes: Uint8Array) => Promise<AcceptedPdf> },
): Promise<SigningPlan> {
  let accepted;
  try {
    accepted = await deps.accept(upload);
  } catch (error) {
    throw toAppError(error);
  }
  const { inspection, bytes: pdf, repaired } = accepted;
  if (inspection.docMdpPermission === 1) throw new AppError("CERTIFIED_NO_CHANGES", "El PDF está certificado y no admite cambios (DocMDP P=1); no se puede firmar.", "pdf_file");
  if (fields.page === undefined) return { pageCount: inspection.pageCount, placement: null, pdf, repaired };

  if (fields.page > inspection.pageCount) throw new AppError("PAGE_NOT_FOUND", `PDFError: Página ${fields.page} no encontrada`, "page");
  if (!image) throw new AppError("VALIDATION", "image es obligatorio cuando se envía page", "image");
  let checked: StampImage;
  try {
    checked = await timed("image", () => readStampImage(image));
  } catch (error) {
    throw toAppError(error, "image");
  }
  const size = stampDimensions(fields.stamp_size as 1 | 2, true, fields.qr_type !== undefined);
  const reference = inspection.pages[fields.page === 0 ? inspection.pageCount - 1 : fields.page - 1];
  const [llx, lly, urx, ury] = reference.cropBox;
  const turned = reference.rotate === 90 || reference.rotate === 270;
  const visible = { width: turned ? ury - lly : urx - llx, height: turned ? urx - llx : ury - lly };
  const rect = { x: fields.position_x, y: fields.position_y, width: size.width, height: size.height };
  if (rect.x + rect.width > visible.width + 0.01 || rect.y + rect.height > visible.height + 0.01) {
    throw new AppError(
      "STAMP_OUT_OF_PAGE",
      `El sello (${size.width}x${size.height} pt) en position_x=${rect.x}, position_y=${rect.y} sale de la página (${Math.round(visible.width)}x${Math.round(visible.height)} pt)`,
      "position_x",
    );
  }
  if (fields.page === 0) {
    return {
      pageCount: inspection.pageCount,
      placement: { pageIndex: inspection.pageCount, appendPage: { width: visible.width, height: visible.height }, rect },
      pdf,
      repaired,
      image: checked,
    };
  }
  return { pageCount: inspection.pageCount, placement: { pageIndex: fields.page - 1, rect }, pdf, repaired, image: checked };
}
