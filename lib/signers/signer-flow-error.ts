import { AppError, type ErrorCode } from "@/lib/errors";

/** Why a signer page cannot go on; the page shows `message` and may branch on `reason`. */
export type SignerRefusal =
  | "unknown_link"
  | "link_replaced"
  | "link_expired"
  | "process_expired"
  | "process_rejected"
  | "process_completed"
  | "approval_pending"
  | "already_signed"
  | "signer_rejected"
  | "wrong_id"
  | "locked"
  | "identity_required"
  | "names_required"
  | "facial_required"
  | "facial_not_required"
  | "eid_required"
  | "eid_not_required"
  | "eid_unavailable"
  | "names_from_eid"
  | "not_your_turn"
  | "document_changed"
  | "pages_not_shown"
  | "ticket_invalid"
  | "ticket_used"
  | "too_many_tickets"
  | "too_many_retries"
  | "too_many_frames"
  | "identity_under_review"
  | "cross_site";

const refusals: Record<SignerRefusal, { code: ErrorCode; message: string }> = {
  unknown_link: { code: "NOT_FOUND", message: "El enlace no existe o está incompleto." },
  link_replaced: { code: "GONE", message: "Este enlace fue reemplazado por uno más reciente; use el último enlace recibido." },
  link_expired: { code: "GONE", message: "El enlace venció. Solicite uno nuevo a quien le envió los documentos." },
  process_expired: { code: "GONE", message: "El proceso de firma venció." },
  process_rejected: { code: "GONE", message: "El proceso de firma fue rechazado." },
  process_completed: { code: "GONE", message: "El proceso de firma ya concluyó: todos firmaron." },
  approval_pending: { code: "GONE", message: "El proceso aún espera aprobación." },
  already_signed: { code: "GONE", message: "Usted ya firmó estos documentos." },
  signer_rejected: { code: "GONE", message: "Usted rechazó firmar estos documentos." },
  wrong_id: { code: "VALIDATION", message: "El número de documento no coincide." },
  locked: { code: "LOCKED", message: "Demasiados intentos fallidos; el acceso quedó bloqueado. Contacte a quien le envió los documentos." },
  identity_required: { code: "FORBIDDEN", message: "Primero ingrese su número de documento." },
  names_required: { code: "FORBIDDEN", message: "Primero confirme sus nombres y apellidos." },
  facial_required: { code: "FORBIDDEN", message: "Primero complete la validación facial." },
  facial_not_required: { code: "VALIDATION", message: "Este firmante no requiere validación facial." },
  eid_required: { code: "FORBIDDEN", message: "Primero identifíquese con el proveedor de identidad." },
  eid_not_required: { code: "VALIDATION", message: "Este firmante no se identifica con un proveedor de identidad." },
  eid_unavailable: { code: "CONFLICT", message: "La organización ya no tiene un proveedor de identidad configurado. Contacte a quien le envió los documentos." },
  names_from_eid: { code: "VALIDATION", message: "Sus nombres vienen del proveedor de identidad y no se pueden cambiar." },
  not_your_turn: { code: "FORBIDDEN", message: "Aún no es su turno: la firma sigue un orden." },
  document_changed: { code: "CONFLICT", message: "Otro firmante firmó mientras tanto; vuelva a intentarlo." },
  ticket_invalid: { code: "VALIDATION", message: "El intento de validación facial no es válido; comience uno nuevo." },
  ticket_used: { code: "CONFLICT", message: "Este intento de validación facial ya se usó; comience uno nuevo." },
  too_many_tickets: { code: "RATE_LIMITED", message: "Comenzó demasiados intentos de validación facial en poco tiempo; espere unos minutos y vuelva a intentarlo." },
  too_many_frames: { code: "RATE_LIMITED", message: "Este intento de validación facial ya envió todas sus imágenes." },
  too_many_retries: { code: "RATE_LIMITED", message: "Hubo demasiados intentos sin resultado en la última hora; espere y vuelva a intentarlo más tarde." },
  identity_under_review: { code: "CONFLICT", message: "Su identidad está en revisión por el personal de la organización; la firma se producirá cuando la aprueben." },
  cross_site: { code: "FORBIDDEN", message: "La solicitud vino de otro sitio y fue rechazada; abra su enlace de firma directamente." },
  pages_not_shown: { code: "FORBIDDEN", message: "Aún no se mostraron todas las páginas de los documentos; recórralos hasta el final antes de firmar." },
};

/** An AppError (mapped by the ordinary error table) that also carries the signer-facing reason. */
export class SignerFlowError extends AppError {
  constructor(
    readonly reason: SignerRefusal,
    /** Attempts left, for wrong_id and failed facial checks. */
    readonly attemptsLeft?: number,
    /** Seconds until a rate-limited request may succeed (the Retry-After header). */
    readonly retryAfterSeconds?: number,
  ) {
    super(refusals[reason].code, refusals[reason].message, reason === "wrong_id" ? "docId" : reason === "ticket_invalid" ? "ticket" : undefined);
  }
}
