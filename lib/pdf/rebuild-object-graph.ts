import { PDFArray, PDFContext, PDFDict, PDFInvalidObject, PDFNull, PDFObject, PDFRef, PDFStream } from "pdf-lib";

export type RebuildReport = {
  /** Objects kept (reachable from the trailer), renumbered 1..n. */
  objects: number;
  /** References to objects the file lacks, now `null` (what readers resolve them to anyway). */
  danglingReferences: number;
  /** Objects whose bytes did not parse (e.g. garbage where `R` was expected), now `null`. */
  corruptObjects: number;
};

/**
 * The object graph of a damaged file as a clean one: only objects reachable from the trailer, numbered
 * 1..n in generation 0, references to missing or corrupt objects replaced by `null`. So the signed
 * base refers to nothing it lacks (a later revision could otherwise define what it points to), keeps no
 * bytes a reader cannot parse, and has no object number beyond the PDF limit. Iterative: a hostile
 * nesting depth cannot exhaust the stack.
 */
export function rebuildObjectGraph(source: PDFContext): { context: PDFContext; report: RebuildReport } {
  const context = PDFContext.create();
  context.header = source.header;
  const report: RebuildReport = { objects: 0, danglingReferences: 0, corruptObjects: 0 };
  const renumbered = new Map<string, PDFRef>();
  const corrupt = new Set<string>();
  const pending: PDFObject[] = [];
  const visited = new Set<PDFObject>();

  /** The new reference for `ref`, or null when it points at nothing usable. */
  const mapRef = (ref: PDFRef): PDFRef | typeof PDFNull => {
    const key = ref.tag;
    const known = renumbered.get(key);
    if (known) return known;
    if (corrupt.has(key)) return PDFNull;
    const target = source.lookup(ref);
    if (target === undefined || target === PDFNull) {
      report.danglingReferences++;
      return PDFNull;
    }
    if (target instanceof PDFInvalidObject) {
      corrupt.add(key);
      report.corruptObjects++;
      return PDFNull;
    }
    const next = context.nextRef();
    renumbered.set(key, next);
    context.assign(next, target);
    report.objects++;
    pending.push(target);
    return next;
  };
  const mapValue = (value: PDFObject): PDFObject => {
    if (value instanceof PDFRef) return mapRef(value);
    if (value instanceof PDFInvalidObject) {
      report.corruptObjects++;
      return PDFNull;
    }
    if (value instanceof PDFDict || value instanceof PDFArray || value instanceof PDFStream) pending.push(value);
    return value;
  };

  for (const key of ["Root", "Info", "ID"] as const) {
    const value = source.trailerInfo[key];
    if (value) context.trailerInfo[key] = mapValue(value);
  }
  while (pending.length > 0) {
    const container = pending.pop()!;
    // every container is rewritten once: its references are already new numbers after that
    if (visited.has(container)) continue;
    visited.add(container);
    const dict = container instanceof PDFStream ? container.dict : container instanceof PDFDict ? container : undefined;
    if (dict) for (const [key, value] of dict.entries()) dict.set(key, mapValue(value));
    if (container instanceof PDFArray) for (let i = 0; i < container.size(); i++) container.set(i, mapValue(container.get(i)));
  }
  return { context, report };
}
