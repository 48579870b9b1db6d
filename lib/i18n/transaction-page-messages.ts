import type { Catalogue } from "./catalogue";

/** The public page a stamp's QR code opens (/verify/<txToken>). Spanish first; same keys in English. */
const es = {
  "transaction.title": "Verificación de firma",
  "transaction.notFound": "No existe una firma con este código de transacción.",
  "transaction.signer": "Firmante",
  "transaction.id": "Documento de identidad",
  "transaction.when": "Fecha y hora",
  "transaction.type": "Tipo de firma",
  "transaction.org": "Organización",
  "transaction.hash": "SHA-256 del PDF firmado",
  "transaction.status": "Estado",
  "transaction.done": "Firmado",
  "transaction.pending": "En proceso",
  "transaction.failed": "No se completó",
  "transaction.level": "Nivel PAdES medido al firmar",
  "transaction.note": "Compare la huella SHA-256 con la de su copia: si coinciden, su documento es el que se firmó.",
};

export const transactionPageMessages = {
  es,
  en: {
    "transaction.title": "Signature verification",
    "transaction.notFound": "There is no signature with this transaction code.",
    "transaction.signer": "Signer",
    "transaction.id": "Identity document",
    "transaction.when": "Date and time",
    "transaction.type": "Signature type",
    "transaction.org": "Organization",
    "transaction.hash": "SHA-256 of the signed PDF",
    "transaction.status": "Status",
    "transaction.done": "Signed",
    "transaction.pending": "Processing",
    "transaction.failed": "Not completed",
    "transaction.level": "PAdES level measured at signing",
    "transaction.note": "Compare the SHA-256 fingerprint with your copy's: if they match, your document is the one that was signed.",
  },
} satisfies Catalogue<typeof es>;
