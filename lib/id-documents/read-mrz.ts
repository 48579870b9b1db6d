import { parse } from "mrz";

/** ICAO 9303 check digit: weights 7-3-1 over digits, letters A=10…Z=35 and the filler < = 0. */
export function mrzCheckDigit(value: string): string {
  const weights = [7, 3, 1];
  let sum = 0;
  for (const [i, char] of [...value].entries()) {
    const v = char === "<" ? 0 : /\d/.test(char) ? Number(char) : char.charCodeAt(0) - 55;
    sum += v * weights[i % 3];
  }
  return String(sum % 10);
}

export type MrzReading = {
  documentNumber: string;
  /** Every check digit of the zone held. */
  valid: boolean;
  lines: string[];
  /** The names as the zone spells them (fillers turned into spaces). */
  names: { lastName: string; firstName: string };
  /** YYYY-MM-DD, only when the expiry's check digit held. */
  expiresOn?: string;
  /**
   * The expiry as printed in the zone when its check digit failed or the date is impossible: never
   * "no date" (issue 36), the card goes to review with this reason (and a past date still refuses).
   */
  expiryProblem?: { reason: "mrz_expiry_check_digit" | "mrz_expiry_unreadable"; asRead?: string };
};

/**
 * Finds a TD1 machine-readable zone (3 lines × 30) in OCR text and parses it with `mrz`. OCR turns
 * the filler "<" into K, «, or spaces now and then, so candidate lines are normalised first; the
 * document number counts only when its check digit holds.
 */
export function readMrz(ocrText: string): MrzReading | null {
  // the zone has no lowercase: a "b" is a 6 read with its loop open (about 1 card in 6 otherwise
  // fails its check digit); read as printed first, so this guess only stands when the digits hold
  return readZone(ocrText, false) ?? (/b/.test(ocrText) ? readZone(ocrText, true) : null);
}

function readZone(ocrText: string, bAsSix: boolean): MrzReading | null {
  const lines = ocrText
    .split(/\r?\n/)
    .map((line) => line.replace(/[«‹<]/g, "<").replace(/\s+/g, ""))
    .map((line) => line.replace(/[^A-Za-z0-9<]/g, ""))
    .filter((line) => line.length >= 26 && (line.match(/</g)?.length ?? 0) >= 3);
  // a lone K, L, C or E between fillers is a misread "<" (no field is one letter wide inside a filler run)
  const normalised = (line: string, sixes: boolean) => (sixes ? line.replace(/b/g, "6") : line).toUpperCase().replace(/(?<=<<)[KLCE](?=<<)/g, "<");
  for (let i = 0; i + 3 <= lines.length; i++) {
    // the names line (the third) holds no digits: a "b" there stays a letter
    const candidate = lines.slice(i, i + 3).map((line, row) => fitTo30(normalised(line, bAsSix && row < 2)));
    if (!candidate[0].startsWith("I") && !candidate[0].startsWith("A") && !candidate[0].startsWith("C")) continue;
    try {
      const result = parse(candidate, { autocorrect: true });
      if (result.format !== "TD1") continue;
      const numberField = result.details.find((d) => d.field === "documentNumber");
      const checkField = result.details.find((d) => d.field === "documentNumberCheckDigit");
      const number = result.documentNumber ?? numberField?.value ?? null;
      if (!number || !numberField?.valid || !checkField?.valid) continue;
      const expiry = result.details.find((d) => d.field === "expirationDate");
      const expiryCheck = result.details.find((d) => d.field === "expirationDateCheckDigit");
      const asRead = isoOfMrzDate(candidate[1].slice(8, 14));
      const expiresOn = expiry?.valid && expiryCheck?.valid ? asRead : undefined;
      const expiryProblem = expiresOn ? undefined : { reason: expiryCheck?.valid === false && asRead ? ("mrz_expiry_check_digit" as const) : ("mrz_expiry_unreadable" as const), ...(asRead ? { asRead } : {}) };
      const names = { lastName: (result.fields.lastName ?? "").trim(), firstName: (result.fields.firstName ?? "").trim() };
      return { documentNumber: number.replace(/</g, ""), valid: result.valid, lines: candidate, names, ...(expiresOn ? { expiresOn } : {}), ...(expiryProblem ? { expiryProblem } : {}) };
    } catch {
      // not a TD1 zone after all: try the next lines
    }
  }
  return null;
}

/** OCR drops or doubles a trailing filler: pad or trim fillers at the end to 30 characters. */
function fitTo30(line: string): string {
  if (line.length === 30) return line;
  if (line.length < 30) return line.padEnd(30, "<");
  const trimmed = line.replace(/<+$/, (fill) => fill.slice(0, Math.max(0, fill.length - (line.length - 30))));
  return trimmed.slice(0, 30);
}

/** YYMMDD of an expiry date: documents expire within a few decades either side of today; an impossible day or month reads as nothing. */
function isoOfMrzDate(value: string): string | undefined {
  const match = /^(\d{2})(\d{2})(\d{2})$/.exec(value);
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 12 || Number(match[3]) < 1 || Number(match[3]) > 31) return undefined;
  const year = Number(match[1]) + (Number(match[1]) >= 70 ? 1900 : 2000);
  return `${year}-${match[2]}-${match[3]}`;
}
