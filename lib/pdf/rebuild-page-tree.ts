import { PDFArray, PDFContext, PDFDict, PDFName, PDFNumber, PDFRef } from "pdf-lib";
import { PdfError } from "@/lib/pdf/errors";

// Attributes a page inherits from its tree (ISO 32000-1 §7.7.3.4): a page cut off from a broken
// parent keeps them, as readers that rebuild the tree do.
const INHERITED = ["Resources", "MediaBox", "CropBox", "Rotate"] as const;
const LETTER = [0, 0, 612, 792];

/**
 * Readers (pdf.js, MuPDF, qpdf's page scan) open a file whose catalog or page tree is damaged by
 * collecting the page objects themselves. This does the same on a loaded context when the trailer's
 * catalog does not lead to a page tree whose every node is a usable dictionary: the pages (`/Type
 * /Page`, in object order) become the kids of one new page tree under the catalog (found by its /Type
 * when the trailer lost it). Returns what was rebuilt, or undefined when the tree was sound. Throws
 * INVALID_PDF naming the broken object when no catalog or no page object is left: nothing to sign.
 */
export function rebuildPageTree(context: PDFContext): string | undefined {
  const root = context.trailerInfo.Root;
  // a trailer lost to the damage: the catalog is the object that says it is one
  const found = root ? undefined : context.enumerateIndirectObjects().find(([, object]) => object instanceof PDFDict && object.get(PDFName.of("Type")) === PDFName.of("Catalog"));
  if (found) context.trailerInfo.Root = found[0];
  const catalog = dictAt(context, context.trailerInfo.Root);
  const pagesRef = catalog?.get(PDFName.of("Pages"));
  // without a catalog there is no document to sign: qpdf and pdf.js give up there too
  if (!catalog) throw beyondRepair(`catalog ${describe(context.trailerInfo.Root)}`, "no object is a /Type /Catalog");
  const broken = brokenNode(context, pagesRef);
  if (!broken) return undefined;

  const pages = context
    .enumerateIndirectObjects()
    .filter(([, object]) => object instanceof PDFDict && object.get(PDFName.of("Type")) === PDFName.of("Page"))
    .sort(([a], [b]) => a.objectNumber - b.objectNumber) as Array<[PDFRef, PDFDict]>;
  if (pages.length === 0) throw beyondRepair(broken, "no page object is left to rebuild the page tree from");

  const tree = context.obj({ Type: "Pages", Kids: pages.map(([ref]) => ref), Count: pages.length });
  const treeRef = context.register(tree);
  for (const [, page] of pages) {
    for (const key of INHERITED) {
      const inherited = page.get(PDFName.of(key)) ?? inheritedFrom(context, page, key);
      if (inherited) page.set(PDFName.of(key), inherited);
    }
    if (!(resolve(context, page.get(PDFName.of("MediaBox"))) instanceof PDFArray)) page.set(PDFName.of("MediaBox"), context.obj(LETTER));
    page.set(PDFName.of("Parent"), treeRef);
  }
  catalog.set(PDFName.of("Pages"), treeRef);
  return `${broken} rebuilt from ${pages.length} page object(s)`;
}

/** The first node of the tree under `ref` a reader cannot walk, described, or undefined. */
function brokenNode(context: PDFContext, ref: unknown): string | undefined {
  const seen = new Set<string>();
  const pending: unknown[] = [ref];
  while (pending.length > 0) {
    const next = pending.pop();
    if (!(next instanceof PDFRef)) return `page tree node ${describe(next)}`;
    if (seen.has(next.tag)) return `page tree node ${next} (a cycle)`;
    seen.add(next.tag);
    const node = dictAt(context, next);
    const type = node?.get(PDFName.of("Type"));
    if (!node || (type !== PDFName.of("Pages") && type !== PDFName.of("Page"))) return `page tree node ${next}`;
    if (type === PDFName.of("Page")) continue;
    const kids = resolve(context, node.get(PDFName.of("Kids")));
    if (!(kids instanceof PDFArray) || !(resolve(context, node.get(PDFName.of("Count"))) instanceof PDFNumber)) return `page tree node ${next}`;
    pending.push(...kids.asArray());
  }
  return undefined;
}

function inheritedFrom(context: PDFContext, page: PDFDict, key: string) {
  let parent = dictAt(context, page.get(PDFName.of("Parent")));
  for (let depth = 0; parent && depth < 64; depth++) {
    const value = parent.get(PDFName.of(key));
    if (value) return value;
    parent = dictAt(context, parent.get(PDFName.of("Parent")));
  }
  return undefined;
}

function beyondRepair(object: string, why: string): PdfError {
  return new PdfError("INVALID_PDF", { reason: `${object} is beyond repair: ${why}`, object });
}

// pdf-lib's lookupMaybe throws on a type mismatch; in a damaged file that is the expected case
function resolve(context: PDFContext, value: unknown): unknown {
  return value instanceof PDFRef ? context.lookup(value) : value;
}

function dictAt(context: PDFContext, value: unknown): PDFDict | undefined {
  const object = resolve(context, value);
  return object instanceof PDFDict ? object : undefined;
}

function describe(value: unknown): string {
  return value instanceof PDFRef ? String(value) : value === undefined ? "(missing)" : `(${String(value).slice(0, 20)})`;
}
