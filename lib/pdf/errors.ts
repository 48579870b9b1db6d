export type PdfErrorCode =
  | "INVALID_PDF"
  | "ENCRYPTED_PDF"
  | "CERTIFIED_NO_CHANGES"
  | "PAGE_NOT_FOUND"
  | "STAMP_OUT_OF_PAGE"
  | "PDF_TOO_COMPLEX"
  | "DAMAGED_SIGNED_PDF";

export type PdfErrorDetails = Record<string, string | number | boolean | undefined>;

const MESSAGES: Record<PdfErrorCode, string> = {
  INVALID_PDF: "El archivo no es un PDF válido o está dañado.",
  ENCRYPTED_PDF: "El PDF está cifrado o protegido con contraseña; no se puede firmar.",
  CERTIFIED_NO_CHANGES: "El PDF está certificado y no admite cambios (DocMDP P=1); no se puede firmar.",
  PAGE_NOT_FOUND: "La página indicada no existe en el documento.",
  STAMP_OUT_OF_PAGE: "El sello queda fuera del área visible de la página.",
  PDF_TOO_COMPLEX: "El PDF excede los límites de complejidad admitidos.",
  DAMAGED_SIGNED_PDF: "El PDF está dañado y ya contiene firmas: repararlo las invalidaría. Envíe una copia sin daños del documento firmado.",
};

/** Every expected failure of the PDF engine; `details.reason` is a technical hint for logs, not for users. */
export class PdfError extends Error {
  readonly code: PdfErrorCode;
  readonly details?: PdfErrorDetails;

  constructor(code: PdfErrorCode, details?: PdfErrorDetails, message?: string) {
    super(message ?? MESSAGES[code]);
    this.name = "PdfError";
    this.code = code;
    this.details = details;
  }

  static pageNotFound(pageNumber: number, pageCount: number): PdfError {
    return new PdfError(
      "PAGE_NOT_FOUND",
      { pageNumber, pageCount },
      `La página ${pageNumber} no existe: el documento tiene ${pageCount} página(s).`,
    );
  }
}

/** Shorthand for a damaged-structure refusal with a reason for logs. */
export function invalidPdf(reason: string): PdfError {
  return new PdfError("INVALID_PDF", { reason });
}

export function tooComplex(reason: string): PdfError {
  return new PdfError("PDF_TOO_COMPLEX", { reason });
}

/**
 * Object numbering beyond what PDF allows (a /Size of 2e9, an object 2147483647): refused by the strict
 * reader as too complex, but it is damage, not cost, so an upload may be rebuilt with compact numbers.
 */
export function numberingBeyondLimit(reason: string): PdfError {
  return new PdfError("PDF_TOO_COMPLEX", { reason, repairable: true });
}

/** Whether `error` is a PdfError (of `code`): by name too, since an error back from a worker pool is built by the bundle that made the pool. */
export function isPdfError(error: unknown, code?: PdfErrorCode): error is PdfError {
  const pdf = error instanceof PdfError || (error instanceof Error && error.name === "PdfError" && "code" in error);
  return pdf && (code === undefined || (error as PdfError).code === code);
}
