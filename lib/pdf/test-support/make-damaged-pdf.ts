/**
 * Test-only small PDFs with the damage found in real uploads, written byte by byte (no PDF library):
 * - `dangling-references`: the catalog and the page refer to objects the file lacks (`6 0 R`,
 *   `7 0 R`..`13 0 R`), just above the highest object it defines (5; /Size 6), so numbering new
 *   objects from /Size would define exactly those;
 * - `corrupt-object`: an annotation object with garbage where `R` was expected (`/P 3 0 X`);
 * - `no-header-size-lie`: a mangled `%PDF-` header and a trailer /Size of 2,000,000,000.
 * `brokenXref` shifts every xref offset, so a strict reader must refuse and a repairing one scan.
 */
export type DamageKind = "dangling-references" | "corrupt-object" | "no-header-size-lie";

const CONTENT = "BT /F1 24 Tf 72 700 Td (Contrato de prueba) Tj ET";

function objectsFor(kind: DamageKind): string[] {
  const catalog = kind === "dangling-references" ? "<< /Type /Catalog /Pages 2 0 R /Names 6 0 R >>" : "<< /Type /Catalog /Pages 2 0 R >>";
  const annots =
    kind === "dangling-references" ? " /Annots [7 0 R 8 0 R 9 0 R 10 0 R 11 0 R 12 0 R 13 0 R]" : kind === "corrupt-object" ? " /Annots [6 0 R]" : "";
  const objects = [
    catalog,
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R${annots} >>`,
    `<< /Length ${CONTENT.length} >>\nstream\n${CONTENT}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  if (kind === "corrupt-object") objects.push("<< /Type /Annot /Subtype /Text /Rect [72 600 92 620] /Contents (nota) /P 3 0 X >>");
  return objects;
}

export function makeDamagedPdf(kind: DamageKind, { brokenXref = false } = {}): Uint8Array {
  let text = kind === "no-header-size-lie" ? "%PFD-1.4\n%\xe2\xe3\xcf\xd3\n" : "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  for (const [index, body] of objectsFor(kind).entries()) {
    offsets.push(text.length);
    text += `${index + 1} 0 obj\n${body}\nendobj\n`;
  }
  const xrefAt = text.length;
  const shift = brokenXref ? 7 : 0;
  text += `xref\n0 ${offsets.length + 1}\n0000000000 65535 f\r\n`;
  for (const offset of offsets) text += `${String(offset + shift).padStart(10, "0")} 00000 n\r\n`;
  const size = kind === "no-header-size-lie" ? 2_000_000_000 : offsets.length + 1;
  text += `trailer\n<< /Size ${size} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(text, "latin1"));
}
