import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, type PDFObject } from "pdf-lib";
import type { LazyPdf } from "@/lib/pdf/open-lazy-pdf";

// Structure elements walked per revision; a tagged 1,000-page report has tens of thousands.
const MAX_STRUCTURE_OBJECTS = 200_000;
// Entries of structure dictionaries that lead to more structure (not to pages, annotations or content).
const STRUCTURE_LINKS = ["K", "ParentTree", "Kids", "Nums", "IDTree", "Names", "RoleMap", "ClassMap", "P"];

/** Objects a signing tool rewrites as bookkeeping: document metadata and the tagged-structure tree. */
export type BookkeepingRoles = {
  /** The XMP stream the catalog names (/Metadata). */
  metadata?: number;
  /** The document information dictionary the trailer names (/Info). */
  info?: number;
  /** StructTreeRoot, structure elements, their kid arrays and the parent-tree nodes. */
  structure: Set<number>;
  /** The interactive form's default resources (/DR) and its indirect sub-dictionaries (fonts by name for field values). */
  formResources: Set<number>;
};

/**
 * Reads, in the state before a revision, which objects are metadata or logical structure. None of
 * them is drawn: readers show page content, annotations and form values, which keep their own roles
 * (and a page, annotation or content stream is never structure, even when a structure element points at it).
 */
export function readBookkeepingRoles(pdf: LazyPdf, catalog: PDFDict | undefined): BookkeepingRoles {
  const roles: BookkeepingRoles = { structure: new Set(), formResources: new Set() };
  const resources = pdf.lookupDict(catalog?.get(PDFName.of("AcroForm")))?.get(PDFName.of("DR"));
  if (resources instanceof PDFRef) roles.formResources.add(resources.objectNumber);
  for (const [, entry] of pdf.lookupDict(resources)?.entries() ?? []) if (entry instanceof PDFRef && pdf.lookup(entry) instanceof PDFDict) roles.formResources.add(entry.objectNumber);
  const metadata = catalog?.get(PDFName.of("Metadata"));
  if (metadata instanceof PDFRef && isMetadataStream(pdf.lookup(metadata))) roles.metadata = metadata.objectNumber;
  const info = pdf.trailer.get(PDFName.of("Info"));
  if (info instanceof PDFRef && pdf.lookup(info) instanceof PDFDict) roles.info = info.objectNumber;

  const root = catalog?.get(PDFName.of("StructTreeRoot"));
  const stack: PDFObject[] = root ? [root] : [];
  while (stack.length && roles.structure.size < MAX_STRUCTURE_OBJECTS) {
    const item = stack.pop()!;
    let value: PDFObject | undefined = item;
    if (item instanceof PDFRef) {
      if (roles.structure.has(item.objectNumber)) continue;
      value = pdf.lookup(item);
      if (!isStructure(value) || (value instanceof PDFArray && !isStructureArray(pdf, value))) continue;
      roles.structure.add(item.objectNumber);
    }
    if (value instanceof PDFArray) stack.push(...value.asArray());
    else if (value instanceof PDFDict && isStructure(value)) for (const key of STRUCTURE_LINKS) {
      const link = value.get(PDFName.of(key));
      if (link && key !== "P") stack.push(link);
    }
  }
  return roles;
}

export function isMetadataStream(value: PDFObject | undefined): boolean {
  return value instanceof PDFRawStream && value.dict.get(PDFName.of("Type")) === PDFName.of("Metadata") && value.dict.get(PDFName.of("Subtype")) === PDFName.of("XML");
}

/** An array of structure items (MCIDs, elements, marked-content and object references); a page's /Kids, /Annots or /Contents array is not. */
function isStructureArray(pdf: LazyPdf, array: PDFArray): boolean {
  return array.asArray().every((item) => {
    if (!(item instanceof PDFRef)) return true;
    const value = pdf.lookup(item);
    if (value instanceof PDFArray || value === undefined) return true;
    if (!(value instanceof PDFDict)) return false;
    const type = value.get(PDFName.of("Type"));
    return type === PDFName.of("MCR") || type === PDFName.of("OBJR") || isStructure(value);
  });
}

/** A structure dictionary, number-tree node or array of them; never a page, annotation, stream or XObject. */
function isStructure(value: PDFObject | undefined): boolean {
  if (value instanceof PDFArray) return true;
  if (!(value instanceof PDFDict)) return false;
  const type = value.get(PDFName.of("Type"));
  if (type === PDFName.of("StructTreeRoot") || type === PDFName.of("StructElem")) return true;
  if (type !== undefined) return false;
  // untyped: a structure element (/S), a number/name tree node, a role or class map
  return value.has(PDFName.of("S")) || value.has(PDFName.of("Nums")) || value.has(PDFName.of("Kids")) || value.has(PDFName.of("Names")) || value.has(PDFName.of("Limits"));
}
