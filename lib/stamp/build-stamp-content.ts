import { StampError } from "@/lib/stamp/errors";
import { formatStampDate } from "@/lib/stamp/format-stamp-date";

export type SignType = "agente" | "digital" | "otp";

/** What the stamp shows about one signature (decision 6 of the spec README). */
export interface StampData {
  names: string;
  lastNames: string;
  personIdType: string;
  personId: string;
  nationality: string;
  email?: string;
  signType: SignType;
  txToken: string;
  signedAt: Date;
  /** IANA zone for the printed time; America/Lima when absent. */
  timeZone?: string;
  environment: "quality" | "production";
  /** Public verification page of this transaction, last line of the `auto` QR. */
  verifyUrl: string;
}

export type StampLineStyle = "banner" | "title" | "body";

export interface StampLine {
  text: string;
  style: StampLineStyle;
}

export type StampQrRequest = { type: "auto" } | { type: "text"; text: string };

export interface StampContent {
  lines: StampLine[];
  /** Text to encode in the QR, or null when the stamp has no QR. */
  qrText: string | null;
}

export const QUALITY_BANNER = "AMBIENTE DE CALIDAD – SIN VALOR LEGAL";

const SIGN_TYPE_LABELS: Record<SignType, string> = { agente: "agente", digital: "digital", otp: "OTP" };

// A newline inside a name would forge an extra line in the stamp and in the auto QR.
function oneLine(value: string): string {
  return value.replace(/\p{Cf}+/gu, "").replace(/[\p{Cc}\p{Z}\s]+/gu, " ").trim();
}

/**
 * The lines printed in the stamp, in order, and the QR text: `auto` is those lines plus the
 * verification URL; `text` is the client's qr_text untouched, line breaks included.
 */
export function buildStampContent(data: StampData, qr?: StampQrRequest): StampContent {
  const signLine =
    data.signType === "otp" && data.email?.trim()
      ? `Firma: ${SIGN_TYPE_LABELS.otp} ${oneLine(data.email)}`
      : `Firma: ${SIGN_TYPE_LABELS[data.signType]}`;

  const lines: StampLine[] = [
    ...(data.environment === "quality" ? [{ text: QUALITY_BANNER, style: "banner" as const }] : []),
    { text: oneLine(`${data.names} ${data.lastNames}`), style: "title" },
    { text: `${oneLine(data.personIdType)}: ${oneLine(data.personId)} · Nacionalidad: ${oneLine(data.nationality)}`, style: "body" },
    { text: `Fecha: ${formatStampDate(data.signedAt, data.timeZone)}`, style: "body" },
    { text: signLine, style: "body" },
    { text: `Id: ${oneLine(data.txToken)}`, style: "body" },
  ];

  if (!qr) return { lines, qrText: null };
  if (qr.type === "auto") return { lines, qrText: [...lines.map((l) => l.text), data.verifyUrl].join("\n") };
  if (qr.text.length === 0) throw new StampError("INVALID_QR", "qr_text es obligatorio cuando qr_type es text.");
  return { lines, qrText: qr.text };
}
