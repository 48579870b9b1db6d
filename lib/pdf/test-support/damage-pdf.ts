/** Test-only damage of the kinds real broken tools produce; deterministic for a given input. */
export type Damage = "xref-offsets-shifted" | "truncated-after-last-object" | "garbage-before-header";

export const damages: Damage[] = ["xref-offsets-shifted", "truncated-after-last-object", "garbage-before-header"];

export function damagePdf(bytes: Uint8Array, damage: Damage): Uint8Array {
  const text = Buffer.from(bytes).toString("latin1");
  if (damage === "garbage-before-header") {
    return new Uint8Array(Buffer.concat([Buffer.from("Content-Type: application/pdf\r\nX-Junk: 0123456789\r\n\r\n", "latin1"), Buffer.from(bytes)]));
  }
  if (damage === "truncated-after-last-object") {
    const end = text.lastIndexOf("endobj");
    return new Uint8Array(Buffer.from(text.slice(0, end + "endobj".length) + "\n", "latin1"));
  }
  // every offset of the last classic xref table moves 7 bytes; with an xref stream, startxref points nowhere useful
  const table = text.lastIndexOf("\nxref");
  const trailer = text.indexOf("trailer", table);
  if (table !== -1 && trailer !== -1) {
    const shifted = text.slice(table, trailer).replace(/^(\d{10}) (\d{5}) n/gm, (_m, offset: string, gen: string) => `${String(Number(offset) + 7).padStart(10, "0")} ${gen} n`);
    return new Uint8Array(Buffer.from(text.slice(0, table) + shifted + text.slice(trailer), "latin1"));
  }
  return new Uint8Array(Buffer.from(text.replace(/startxref\s+(\d+)\s+%%EOF\s*$/, (_m, at: string) => `startxref\n${Number(at) + 7}\n%%EOF\n`), "latin1"));
}
