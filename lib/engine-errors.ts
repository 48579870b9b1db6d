import { AppError, type ErrorCode } from "@/lib/errors";
import { isPdfError } from "@/lib/pdf/errors";
import { isPkiError } from "@/lib/pki/errors";

/** Engine errors (PDF, PKI) become AppErrors with the request field they are about. */
export function toAppError(error: unknown, field = "pdf_file"): unknown {
  if (isPdfError(error)) {
    const code: ErrorCode = error.code === "PDF_TOO_COMPLEX" || error.code === "DAMAGED_SIGNED_PDF" ? "INVALID_PDF" : error.code;
    return new AppError(code, error.message, code === "STAMP_OUT_OF_PAGE" ? "position_x" : field);
  }
  if (isPkiError(error)) return new AppError("SIGNING_FAILED", error.message);
  if (error instanceof Error && error.name === "StampError") {
    const code = (error as Error & { code: string }).code;
    return new AppError("INVALID_IMAGE", error.message, code === "INVALID_QR" ? "qr_text" : "image");
  }
  return error;
}
