import { PDFDict, PDFName, PDFNumber, PDFRef } from "pdf-lib";
import type { IncrementalUpdate } from "@/lib/pdf/append-incremental-update";

/**
 * ETSI's developer extension level for PAdES part 4 (DSS and document time-stamps); it includes
 * level 2 (ETSI.CAdES.detached signatures). iText writes the same entry with the same features.
 */
const ESIC_EXTENSION_LEVEL = 5;

/**
 * Declares /Extensions /ESIC << /BaseVersion /1.7 /ExtensionLevel 5 >> in the catalog of a PDF 1.x
 * document whose revision uses PDF 2.0 signature features (CAdES signatures, DSS, document
 * time-stamps). Done in the signed revision, so the unsigned DSS revision after it changes nothing
 * but /DSS. A PDF 2.0 document, or one that already declares level 5 or more, is left alone.
 */
export function declareEsicExtension(update: IncrementalUpdate, catalogRef: PDFRef, headerBytes: Uint8Array): void {
  const pdf = update.pdf;
  const catalog = pdf.lookupDict(catalogRef);
  if (!catalog || isPdf2(headerBytes, catalog)) return;
  const rawExtensions = catalog.get(PDFName.of("Extensions"));
  const extensions = pdf.lookupDict(rawExtensions);
  const esic = pdf.lookupDict(extensions?.get(PDFName.of("ESIC")));
  const level = pdf.lookup(esic?.get(PDFName.of("ExtensionLevel")));
  if (level instanceof PDFNumber && level.asNumber() >= ESIC_EXTENSION_LEVEL) return;

  const declared = PDFDict.withContext(pdf.context);
  if (extensions) for (const [key, value] of extensions.entries()) declared.set(key, value);
  const entry = PDFDict.withContext(pdf.context);
  entry.set(PDFName.of("BaseVersion"), PDFName.of("1.7"));
  entry.set(PDFName.of("ExtensionLevel"), PDFNumber.of(ESIC_EXTENSION_LEVEL));
  declared.set(PDFName.of("ESIC"), entry);
  if (rawExtensions instanceof PDFRef) {
    update.put(rawExtensions, declared);
  } else {
    catalog.set(PDFName.of("Extensions"), declared);
  }
  update.put(catalogRef, catalog);
}

function isPdf2(headerBytes: Uint8Array, catalog: PDFDict): boolean {
  const header = Buffer.from(headerBytes.subarray(0, 8)).toString("latin1");
  const version = catalog.get(PDFName.of("Version"));
  return header.startsWith("%PDF-2.") || (version instanceof PDFName && version.decodeText().startsWith("2."));
}
