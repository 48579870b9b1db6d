import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, type PDFObject } from "pdf-lib";
import { collectPages } from "@/lib/pdf/collect-pages";
import type { LazyPdf } from "@/lib/pdf/open-lazy-pdf";

// Objects reached from the pages' resources; past this the walk stops and what it did not reach stays strictly judged.
const MAX_DRAWN_OBJECTS = 50_000;
const MAX_NAME_TREE_NODES = 10_000;
// Name trees whose entries run or embed something: never bookkeeping.
const ACTIVE_NAME_TREES = new Set(["JavaScript", "EmbeddedFiles", "AlternatePresentations", "Renditions"]);

/**
 * Objects the signed pages draw with: everything reachable from each page's /Resources (fonts, their
 * descriptors and font files, images, form XObjects, patterns, colour spaces, graphics states).
 * ISO 32000-2 §12.8.2.2 forbids changing them unless the page renders the same, which the render check decides.
 */
export function readDrawnObjects(pdf: LazyPdf, catalog: PDFDict | undefined): Set<number> {
  const drawn = new Set<number>();
  if (!catalog) return drawn;
  const pages = collectPages(pdf, catalog).pages;
  const pageNumbers = new Set(pages.map((page) => page.ref.objectNumber));
  const stack: PDFObject[] = [];
  for (const page of pages) {
    const resources = pdf.lookupDict(page.ref)?.get(PDFName.of("Resources"));
    if (resources) stack.push(resources);
  }
  while (stack.length && drawn.size < MAX_DRAWN_OBJECTS) {
    const item = stack.pop()!;
    let value: PDFObject | undefined = item;
    if (item instanceof PDFRef) {
      // a form XObject's /Parent-like links never lead back to a page we would then call "drawn"
      if (drawn.has(item.objectNumber) || pageNumbers.has(item.objectNumber)) continue;
      drawn.add(item.objectNumber);
      value = pdf.lookup(item);
    }
    const dict = value instanceof PDFRawStream ? value.dict : value;
    if (dict instanceof PDFDict) for (const [key, entry] of dict.entries()) if (key.decodeText() !== "Parent" && key.decodeText() !== "P") stack.push(entry);
    if (dict instanceof PDFArray) stack.push(...dict.asArray());
  }
  return drawn;
}

/** The catalog's /Names dictionary and its name-tree nodes (not the values they name), outside the trees that run or embed something. */
export function readNameTreeNodes(pdf: LazyPdf, catalog: PDFDict | undefined): Set<number> {
  const nodes = new Set<number>();
  const namesRef = catalog?.get(PDFName.of("Names"));
  if (namesRef instanceof PDFRef) nodes.add(namesRef.objectNumber);
  const stack: PDFObject[] = [];
  for (const [key, tree] of pdf.lookupDict(namesRef)?.entries() ?? []) if (!ACTIVE_NAME_TREES.has(key.decodeText())) stack.push(tree);
  while (stack.length && nodes.size < MAX_NAME_TREE_NODES) {
    const item = stack.pop()!;
    if (!(item instanceof PDFRef) || nodes.has(item.objectNumber)) continue;
    const node = pdf.lookupDict(item);
    if (!node || !(node.has(PDFName.of("Kids")) || node.has(PDFName.of("Names")))) continue;
    nodes.add(item.objectNumber);
    const kids = pdf.lookup(node.get(PDFName.of("Kids")));
    if (kids instanceof PDFArray) stack.push(...kids.asArray());
  }
  return nodes;
}

/** The names dictionary's active trees (JavaScript, embedded files) are the same before and after. */
export function sameActiveNameTrees(before: PDFObject | undefined, after: PDFObject | undefined, same: (a: PDFObject | undefined, b: PDFObject | undefined) => boolean, lookup: { old: (o: PDFObject | undefined) => PDFObject | undefined; now: (o: PDFObject | undefined) => PDFObject | undefined }): boolean {
  const oldDict = lookup.old(before);
  const newDict = lookup.now(after);
  return [...ACTIVE_NAME_TREES].every((key) => same(oldDict instanceof PDFDict ? oldDict.get(PDFName.of(key)) : undefined, newDict instanceof PDFDict ? newDict.get(PDFName.of(key)) : undefined));
}
