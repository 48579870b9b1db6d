import { AppError, type ErrorCode } from "@/lib/errors";

/** Why an image cannot be used for a face check. */
export type FaceErrorReason = "NO_FACE" | "MULTIPLE_FACES" | "INVALID_IMAGE" | "FACE_TOO_SMALL";

const faceErrors: Record<FaceErrorReason, { code: ErrorCode; message: string }> = {
  NO_FACE: { code: "VALIDATION", message: "No se detectó ningún rostro en la imagen." },
  MULTIPLE_FACES: { code: "VALIDATION", message: "Se detectó más de un rostro; la foto debe mostrar solo a una persona." },
  INVALID_IMAGE: { code: "INVALID_IMAGE", message: "La imagen no es un JPEG, PNG o WebP válido." },
  FACE_TOO_SMALL: { code: "VALIDATION", message: "El rostro es demasiado pequeño; acérquese a la cámara." },
};

/**
 * An AppError (mapped by the ordinary error table) that also carries the face-specific `reason`,
 * so the signer page can tell "no face" from "two faces" while the HTTP status stays in one table.
 */
export class FaceError extends AppError {
  constructor(
    readonly reason: FaceErrorReason,
    detail?: string,
  ) {
    super(faceErrors[reason].code, detail ? `${faceErrors[reason].message} (${detail})` : faceErrors[reason].message);
  }
}
