import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, type PDFObject } from "pdf-lib";
import { tooComplex } from "@/lib/pdf/errors";
import type { LazyPdf } from "@/lib/pdf/open-lazy-pdf";

// Objects walked to learn what one revision refers to; past this, every candidate counts as referred to.
const MAX_WALKED = 200_000;

/** Objects all walks of one verification may visit (each revision's state is walked once); past it the file is too complex. */
export type WalkBudget = { left: number };
export const walkBudgetPerFile = (): WalkBudget => ({ left: 2_000_000 });

/**
 * The object numbers among `candidates` that `pdf` refers to (from its catalog and /Info, through every
 * reachable object) without defining them: dangling references. A later revision that defines one
 * changes what the earlier revision points to (PDFBox reports it), so it is judged as a change.
 */
export function findDanglingReferences(pdf: LazyPdf, candidates: number[], budget: WalkBudget = walkBudgetPerFile()): number[] {
  if (candidates.length === 0) return [];
  const wanted = new Set(candidates);
  const found = new Set<number>();
  const seen = new Set<number>();
  // what a reader shows hangs from /Root and /Info; other trailer keys are writers' notes (LibreOffice's /AdditionalStreams names objects it writes later)
  const stack: PDFObject[] = ["Root", "Info"].flatMap((key) => pdf.trailer.get(PDFName.of(key)) ?? []);
  while (stack.length) {
    const item = stack.pop()!;
    if (item instanceof PDFRef) {
      if (seen.has(item.objectNumber)) continue;
      seen.add(item.objectNumber);
      if (seen.size > MAX_WALKED) return candidates;
      if (--budget.left < 0) throw tooComplex("too many objects to walk for references");
      let value: PDFObject | undefined;
      try {
        value = pdf.getObject(item, false);
      } catch {
        value = undefined;
      }
      if (value === undefined) {
        if (wanted.has(item.objectNumber)) found.add(item.objectNumber);
        continue;
      }
      stack.push(value);
    } else if (item instanceof PDFDict) stack.push(...item.values());
    else if (item instanceof PDFRawStream) stack.push(...item.dict.values());
    else if (item instanceof PDFArray) stack.push(...item.asArray());
  }
  return [...found];
}
