/** Failures of talking to an external time-stamp authority; callers map the code to their API. */
export const tsaErrorCodes = [
  "TSA_UNREACHABLE",
  "TSA_HTTP_ERROR",
  "TSA_REJECTED",
  "TSA_INVALID_RESPONSE",
  "TSA_RESPONSE_MISMATCH",
] as const;

export type TsaErrorCode = (typeof tsaErrorCodes)[number];

export class TsaError extends Error {
  constructor(
    readonly code: TsaErrorCode,
    message?: string,
    options?: { cause?: unknown },
  ) {
    super(message ?? code, options);
    this.name = "TsaError";
  }
}

export function isTsaError(error: unknown, code?: TsaErrorCode): error is TsaError {
  // by name too: an error back from a worker pool is built by the bundle that made the pool (instrumentation's)
  const tsa = error instanceof TsaError || (error instanceof Error && error.name === "TsaError" && "code" in error);
  return tsa && (code === undefined || (error as TsaError).code === code);
}
