import { createHash } from "node:crypto";
import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, type PDFObject } from "pdf-lib";

/** How a revision's entries compare with the state before it: kept arrays, changed keys, identical objects. */

/** Old items all kept in their order (new ones may go anywhere: writers prepend too); every added item passes `allowed`. */
export function appendOnly(old: PDFObject | undefined, value: PDFObject | undefined, allowed: (item: PDFObject) => boolean): string | undefined {
  const before = old instanceof PDFArray ? old.asArray() : [];
  if (!(value instanceof PDFArray)) return before.length ? "entries were removed" : undefined;
  const items = value.asArray();
  const added: PDFObject[] = [];
  let kept = 0;
  for (const item of items) {
    if (kept < before.length && item.toString() === before[kept].toString()) kept++;
    else added.push(item);
  }
  if (kept < before.length) return "existing entries were removed or reordered";
  const refused = added.filter((item) => !allowed(item));
  return refused.length ? `${refused.length} entr${refused.length === 1 ? "y was" : "ies were"} added that are not new signatures` : undefined;
}

export type Same = (a: PDFObject | undefined, b: PDFObject | undefined) => boolean;

export function changedKeys(old: PDFObject | undefined, value: PDFObject | undefined, same: Same): string[] {
  const a = old instanceof PDFDict ? old : old instanceof PDFRawStream ? old.dict : undefined;
  const b = value instanceof PDFDict ? value : value instanceof PDFRawStream ? value.dict : undefined;
  if (!a || !b || a.constructor !== b.constructor) return ["(type)"];
  const keys = new Set([...a.keys(), ...b.keys()].map((key) => key.decodeText()));
  const changed = [...keys].filter((key) => !same(a.get(PDFName.of(key)), b.get(PDFName.of(key))));
  if (old instanceof PDFRawStream && value instanceof PDFRawStream && !sameBytes(old.getContents(), value.getContents())) changed.push("(stream data)");
  return changed;
}

export function sameObject(a: PDFObject | undefined | "unreadable", b: PDFObject | undefined | "unreadable"): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === "unreadable" || b === "unreadable") return false;
  if (a instanceof PDFRawStream || b instanceof PDFRawStream) {
    return a instanceof PDFRawStream && b instanceof PDFRawStream && a.dict.toString() === b.dict.toString() && sameBytes(a.getContents(), b.getContents());
  }
  return a.toString() === b.toString();
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && createHash("sha256").update(a).digest().equals(createHash("sha256").update(b).digest());
}

// what a page tree node means to a reader (ISO 32000 7.7.3.2, with the inherited page attributes)
const PAGE_TREE_KEYS = new Set(["Type", "Parent", "Kids", "Count", "Resources", "MediaBox", "CropBox", "Rotate"]);

/** Only keys outside ISO 32000's page-tree entries were added, with plain values (iText's /ITXT): nothing a reader draws. */
export function writerMarkersOnly(old: PDFObject, value: PDFObject | undefined, same: Same): boolean {
  if (!(old instanceof PDFDict) || !(value instanceof PDFDict)) return false;
  return changedKeys(old, value, same).every((key) => !PAGE_TREE_KEYS.has(key) && !old.has(PDFName.of(key)) && !(value.get(PDFName.of(key)) instanceof PDFRef) && !(value.get(PDFName.of(key)) instanceof PDFDict));
}

export function isPageTreeNode(obj: PDFObject): boolean {
  return obj instanceof PDFDict && obj.get(PDFName.of("Type")) === PDFName.of("Pages");
}

export function describe(obj: PDFObject): string {
  const dict = obj instanceof PDFDict ? obj : obj instanceof PDFRawStream ? obj.dict : undefined;
  const type = dict?.get(PDFName.of("Type"));
  const subtype = dict?.get(PDFName.of("Subtype"));
  const words = [type, subtype].filter((name): name is PDFName => name instanceof PDFName).map((name) => name.toString());
  if (words.length) return words.join(" ");
  return obj instanceof PDFRawStream ? "stream" : obj instanceof PDFArray ? "array" : obj instanceof PDFDict ? "dictionary" : "value";
}
