import { AppError, type ErrorCode } from "@/lib/errors";
import { PdfError, type PdfErrorCode } from "@/lib/pdf/errors";
import { PkiError, type PkiErrorCode } from "@/lib/pki/errors";
import { TsaError, type TsaErrorCode } from "@/lib/tsa/errors";

/** Errors cross the worker boundary as data; the expected kinds come back as the same classes. */
export type SerializedError = { kind: "PdfError" | "PkiError" | "TsaError" | "AppError" | "Error"; code?: string; message: string; details?: unknown; field?: string };

export function serializeError(error: unknown): SerializedError {
  if (error instanceof PdfError) return { kind: "PdfError", code: error.code, message: error.message, details: error.details };
  if (error instanceof PkiError) return { kind: "PkiError", code: error.code, message: error.message };
  // a TSA failure (main-thread hook) passes through the worker and back; by name, since the bundles
  // may hold more than one copy of its class
  if (error instanceof Error && error.name === "TsaError") return { kind: "TsaError", code: (error as TsaError).code, message: error.message };
  if (error instanceof AppError) return { kind: "AppError", code: error.code, message: error.message, field: error.field };
  // an out-of-range allocation in untrusted input is a complexity refusal, like in the main thread
  if (error instanceof RangeError) return { kind: "PdfError", code: "PDF_TOO_COMPLEX", message: new PdfError("PDF_TOO_COMPLEX").message, details: { reason: error.message } };
  return { kind: "Error", message: error instanceof Error ? error.message : String(error) };
}

export function deserializeError(error: SerializedError): Error {
  if (error.kind === "PdfError") return new PdfError(error.code as PdfErrorCode, error.details as PdfError["details"], error.message);
  if (error.kind === "PkiError") return new PkiError(error.code as PkiErrorCode, error.message);
  if (error.kind === "TsaError") return new TsaError(error.code as TsaErrorCode, error.message);
  if (error.kind === "AppError") return new AppError(error.code as ErrorCode, error.message, error.field);
  return new Error(error.message);
}
