/** Expected failures of key, certificate and CMS handling; callers map the code to their API. */
export const pkiErrorCodes = [
  "WRONG_PIN",
  "WRONG_PKCS12_PASSWORD",
  "INVALID_PKCS12",
  "UNSUPPORTED_PKCS12_ALGORITHM",
  "PKCS12_TOO_COSTLY",
  "UNSUPPORTED_KEY",
  "KEY_CERTIFICATE_MISMATCH",
  "INVALID_CERTIFICATE",
  "INVALID_ENCRYPTED_KEY",
  "DECRYPTION_FAILED",
  "INVALID_CMS",
  "INVALID_INPUT",
] as const;

export type PkiErrorCode = (typeof pkiErrorCodes)[number];

export class PkiError extends Error {
  constructor(
    readonly code: PkiErrorCode,
    message?: string,
    options?: { cause?: unknown },
  ) {
    super(message ?? code, options);
    this.name = "PkiError";
  }
}

export function isPkiError(error: unknown, code?: PkiErrorCode): error is PkiError {
  // by name too: an error back from a worker pool is built by the bundle that made the pool (instrumentation's)
  const pki = error instanceof PkiError || (error instanceof Error && error.name === "PkiError" && "code" in error);
  return pki && (code === undefined || (error as PkiError).code === code);
}
