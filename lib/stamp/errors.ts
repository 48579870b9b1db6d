export type StampErrorCode = "INVALID_IMAGE" | "IMAGE_NOT_PORTRAIT" | "INVALID_QR";

/**
 * Expected failure while reading the stamp image or building the stamp. The name is matched by
 * lib/engine-errors.ts, which turns it into an AppError for the `image` or `qr_text` field.
 */
export class StampError extends Error {
  readonly code: StampErrorCode;

  constructor(code: StampErrorCode, message: string) {
    super(message);
    this.name = "StampError";
    this.code = code;
  }
}
