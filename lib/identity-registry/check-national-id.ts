/** ID types (nat) the service knows, with the form of their doc_id (decision 19). */
export const nationalities = ["PER", "CHL", "PERPASS", "PERCE"] as const;
export type Nationality = (typeof nationalities)[number];

const formats: Record<Nationality, { pattern: RegExp; hint: string }> = {
  PER: { pattern: /^\d{8}$/, hint: "8 dígitos" },
  CHL: { pattern: /^\d{8}-[0-9K]$/, hint: "8 dígitos, guion y dígito verificador (########-K)" },
  PERPASS: { pattern: /^\d{10}$/, hint: "10 dígitos" },
  PERCE: { pattern: /^\d{12}$/, hint: "12 dígitos" },
};

/** Chilean RUN/RUT check character: modulo 11 with factors 2..7 from the right; 10 → K, 11 → 0. */
export function chileanCheckDigit(digits: string): string {
  let sum = 0;
  let factor = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * factor;
    factor = factor === 7 ? 2 : factor + 1;
  }
  const rest = 11 - (sum % 11);
  return rest === 11 ? "0" : rest === 10 ? "K" : String(rest);
}

/** Null when doc_id has the form of its nat (and a valid check digit for CHL); otherwise what is wrong. */
export function nationalIdProblem(nat: string, docId: string): string | null {
  if (!(nationalities as readonly string[]).includes(nat)) return `nat desconocido: ${nat}`;
  const format = formats[nat as Nationality];
  if (!format.pattern.test(docId)) return `doc_id debe tener ${format.hint} para ${nat}`;
  if (nat === "CHL" && chileanCheckDigit(docId.slice(0, 8)) !== docId.slice(9)) return "doc_id: dígito verificador inválido";
  return null;
}

/** CHL check characters are compared in upper case; other forms are digits only. */
export function normalizeDocId(docId: string): string {
  return docId.trim().toUpperCase();
}
