/**
 * Expected failures carry a code; the HTTP status and body for each API family come from ONE table
 * (lib/http/error-responses.ts). Anything that is not an AppError becomes a generic 500.
 */
export const errorCodes = [
  "VALIDATION",
  "UNAUTHORIZED",
  "INVALID_CREDENTIALS",
  "FORBIDDEN",
  "NOT_FOUND",
  "CONFLICT",
  "TX_TOKEN_REUSED",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "INVALID_PDF",
  "ENCRYPTED_PDF",
  "CERTIFIED_NO_CHANGES",
  "PAGE_NOT_FOUND",
  "STAMP_OUT_OF_PAGE",
  "INVALID_IMAGE",
  "SIGNING_FAILED",
  "LOCKED",
  "GONE",
  "ORGANIZATION_SUSPENDED",
  "BUSY",
  "RATE_LIMITED",
  "INTERNAL",
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/** Seconds a client should wait after a BUSY (503) answer. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message?: string,
    /** The request field at fault, when there is one (X-Error-Detail, stamp-API message prefix). */
    readonly field?: string,
  ) {
    super(message ?? code);
    this.name = "AppError";
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError || (error instanceof Error && error.name === "AppError" && "code" in error);
}
