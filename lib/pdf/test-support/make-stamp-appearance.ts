import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import type { StampAppearance } from "@/lib/pdf/copy-appearance";

/** A scratch document holding a Form XObject: filled rectangle with a border and a line of text. */
export async function makeStampAppearance(width: number, height: number, label = "Firmado digitalmente"): Promise<StampAppearance> {
  const document = await PDFDocument.create();
  const page = document.addPage([width, height]);
  const font = await document.embedFont(StandardFonts.Helvetica);
  page.drawRectangle({ x: 0, y: 0, width, height, color: rgb(0.85, 0.9, 1), borderColor: rgb(0, 0, 0.6), borderWidth: 2 });
  page.drawText(label, { x: 6, y: height / 2 - 5, size: 10, font, color: rgb(0, 0, 0.4) });
  const embedded = await document.embedPage(page);
  return { document, formXObject: embedded.ref };
}
