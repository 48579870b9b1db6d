/** Why an eID login did not prove the signer's identity; each one counts as a failed identity try. */
export type EidFailureReason =
  | "state"
  | "nonce"
  | "expired"
  | "audience"
  | "issuer"
  | "signature"
  | "denied"
  | "unreachable"
  | "provider_error"
  | "claims_missing"
  | "other_person";

/** Spanish messages the signer page shows (docs/signer-pages.md); English lives in the signer messages. */
export const eidFailureMessages: Record<EidFailureReason, string> = {
  state: "La respuesta del proveedor de identidad no corresponde a este intento (state). Vuelva a intentarlo desde esta página.",
  nonce: "La identificación no corresponde a este intento (nonce). Vuelva a intentarlo desde esta página.",
  expired: "La identificación del proveedor venció antes de llegar. Vuelva a intentarlo.",
  audience: "La identificación fue emitida para otra aplicación (audiencia incorrecta).",
  issuer: "La identificación no fue emitida por el proveedor configurado.",
  signature: "La firma de la identificación del proveedor no es válida.",
  denied: "La identificación fue cancelada o rechazada en el proveedor.",
  unreachable: "No se pudo contactar al proveedor de identidad. Inténtelo más tarde.",
  provider_error: "El proveedor de identidad respondió con un error.",
  claims_missing: "El proveedor no entregó su número de documento o sus nombres.",
  other_person: "El número de documento de su identificación no coincide con el de este proceso de firma.",
};

export class EidFailure extends Error {
  constructor(readonly reason: EidFailureReason) {
    super(eidFailureMessages[reason]);
    this.name = "EidFailure";
  }
}

export const isEidFailureReason = (value: string): value is EidFailureReason => value in eidFailureMessages;
