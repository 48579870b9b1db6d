import { createHash } from "node:crypto";
import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, type PDFObject } from "pdf-lib";
import type { LazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { sameContent } from "./compare-pdf-objects";
import { findDanglingReferences, type WalkBudget } from "./find-dangling-references";
import { isMetadataStream, readBookkeepingRoles } from "./read-bookkeeping-roles";
import { readDssObjects, readRoles } from "./read-revision-roles";
import { objectIn, type Revision } from "./read-revisions";

/** What later revisions may do, from the DocMDP permission in force (approval signatures: "form", as ISO 32000 has it; "signatures" is P=2 without form filling, for tests). */
export type ChangePermission = "none" | "signatures" | "form" | "annotations";

export type ChangeKind =
  | "validation-data"
  | "signature"
  | "document-timestamp"
  | "form-fill"
  | "annotation"
  | "page-content"
  | "pages"
  | "catalog"
  | "form-field"
  | "signature-appearance"
  | "object-changed"
  | "object-deleted"
  | "revision-without-signature"
  | "unaccounted-bytes"
  | "xref-not-chained"
  | "metadata"
  | "document-structure"
  | "object-defined-later";

export type Change = { revision: number; kind: ChangeKind; allowed: boolean; object?: number; detail: string };

/** The signatures a revision adds (by signature dictionary object number), and whether each is intact. */
export type NewSignatures = Map<number, { kind: "signature" | "document-timestamp"; intact: boolean }>;


/**
 * Compares one revision with the document state before it and classifies every object it changes
 * (objects it only adds are inert until a changed object refers to them, so the changed ones are
 * what is judged). Allowed: validation data (DSS), a document time-stamp, a new signature in its own
 * field with its widget, and what `permission` adds (form filling, annotations).
 */
/** FieldMDP: names of fields a signature locked (ISO 32000 12.8.2.4); `all` locks every field. */
export type FieldLock = { action: "all" } | { action: "include" | "exclude"; fields: Set<string> };

export function classifyRevisionChanges(before: LazyPdf, revision: Revision, newSignatures: NewSignatures, permission: ChangePermission, locks: FieldLock[] = [], walkBudget?: WalkBudget): Change[] {
  const after = revision.state();
  const changes: Change[] = [];
  const add = (kind: ChangeKind, allowed: boolean, detail: string, object?: number) => changes.push({ revision: revision.index, kind, allowed, object, detail });
  const rootBefore = before.trailer.get(PDFName.of("Root"));
  const rootAfter = after.trailer.get(PDFName.of("Root"));
  const catalogBefore = before.lookupDict(rootBefore);
  const catalogAfter = after.lookupDict(rootAfter);
  if (!(rootBefore instanceof PDFRef) || !(rootAfter instanceof PDFRef) || !catalogBefore || !catalogAfter) {
    add("catalog", false, "the document catalog was replaced");
    return changes;
  }
  const same = (a: PDFObject | undefined, b: PDFObject | undefined) => sameContent(a, b, before, after, walkBudget);
  // metadata and structure rewritten while signing: allowed once the revision is known to add a signature or validation data
  const bookkeeping: Change[] = [];
  const keep = (kind: "metadata" | "document-structure", detail: string, object?: number) => bookkeeping.push({ revision: revision.index, kind, allowed: true, object, detail });
  const infoBefore = before.trailer.get(PDFName.of("Info"));
  const infoAfter = after.trailer.get(PDFName.of("Info"));
  // a different /Info object (a rewritten one is judged below with the other objects) is what viewers show as title and author
  if (infoAfter !== undefined && !same(infoBefore, infoAfter)) keep("metadata", "the document information (/Info) was replaced");
  const roles = readRoles(before, rootBefore.objectNumber);
  const kept = readBookkeepingRoles(before, catalogBefore);

  // an object already in the DSS may be updated; an object cannot become validation data by being linked from it
  const dssBefore = readDssObjects(before, rootBefore.objectNumber);
  const dss = new Set([...readDssObjects(after, rootAfter.objectNumber)].filter((num) => dssBefore.has(num)));
  const signatureAllowed = (ref: PDFObject | undefined) => {
    if (!(ref instanceof PDFRef)) return false;
    const added = newSignatures.get(ref.objectNumber);
    return !!added?.intact && (added.kind === "document-timestamp" || permission !== "none");
  };
  const isNewSignatureField = (ref: PDFObject) => {
    const field = after.lookupDict(ref);
    if (!field) return false;
    const owner = field.get(PDFName.of("FT")) ? field : after.lookupDict(field.get(PDFName.of("Parent")));
    return owner?.get(PDFName.of("FT")) === PDFName.of("Sig") && signatureAllowed(owner.get(PDFName.of("V")));
  };
  const isAllowedNewAnnotation = (ref: PDFObject) => {
    if (isNewSignatureField(ref)) return true;
    const annotation = after.lookupDict(ref);
    return permission === "annotations" && annotation?.get(PDFName.of("Subtype")) !== PDFName.of("Widget");
  };

  let sawSignatureOrData = false;
  for (const [num, signature] of newSignatures) {
    if (!signature.intact) continue;
    sawSignatureOrData = true;
    const permitted = signature.kind === "document-timestamp" || permission !== "none";
    add(signature.kind, permitted, permitted ? `a ${signature.kind === "signature" ? "signature" : "document time-stamp"} was added` : "a signature was added to a document certified with no changes allowed", num);
  }
  // some writers save the catalog under a new number: it is judged by what it says
  if (rootBefore.objectNumber !== rootAfter.objectNumber) judgeCatalog(catalogBefore, catalogAfter);
  // an object the earlier state referred to but lacked, now defined: what the signed bytes point to changed
  const defined = revision.entries.flatMap(([num, entry]) => (entry.type !== 0 && objectIn(before, num) === undefined ? [num] : []));
  for (const num of findDanglingReferences(before, defined, walkBudget)) add("object-defined-later", false, `object ${num} was referred to but missing before this revision, which defines it`, num);
  for (const [num, entry] of revision.entries) {
    const old = objectIn(before, num);
    if (entry.type === 0) {
      if (old !== undefined) add("object-deleted", false, `object ${num} was deleted`, num);
      continue;
    }
    if (old === undefined) continue;
    const value = objectIn(after, num);
    // the catalog is always judged: a DSS written again with the same content is still a validation-data revision
    if (sameObject(old, value) || (num !== roles.catalog && old !== "unreadable" && value !== "unreadable" && same(old, value))) continue;
    if (old === "unreadable" || value === "unreadable" || value === undefined) {
      add("object-changed", false, `object ${num} was replaced by something unreadable`, num);
      continue;
    }
    if (dss.has(num)) {
      sawSignatureOrData = true;
      add("validation-data", true, "validation data (DSS) updated", num);
    } else if (num === roles.catalog) {
      judgeCatalog(old as PDFDict, value as PDFDict);
    } else if (num === roles.acroForm) {
      judgeAcroForm(old, value, num);
    } else if (num === roles.fields || roles.annotArrays.has(num)) {
      const fields = num === roles.fields;
      const problem = appendOnly(old, value, fields ? isNewSignatureField : isAllowedNewAnnotation);
      if (problem) add(fields ? "form-field" : "annotation", false, `${fields ? "form fields" : "page annotations"}: ${problem}`, num);
    } else if (roles.pages.has(num)) {
      judgePage(old, value, num);
    } else if (roles.signatureFields.has(num)) {
      const changed = changedKeys(old, value, same);
      const filled = old instanceof PDFDict && !old.has(PDFName.of("V")) && value instanceof PDFDict && signatureAllowed(value.get(PDFName.of("V")));
      // filling a prepared field: its value, its appearance inside the prepared /Rect, and its flags (made printable)
      if (filled && changed.every((key) => ["V", "AP", "AS", "F"].includes(key))) continue;
      add("signature-appearance", false, `signature field object ${num} changed (${changed.join(", ") || "replaced"}) without a new signature in it`, num);
    } else if (roles.formFields.has(num)) {
      // the value, its appearance and the font it is drawn with (/DA)
      const onlyValues = changedKeys(old, value, same).every((key) => ["V", "AS", "AP", "DA"].includes(key));
      const name = roles.fieldNames.get(num) ?? "";
      const locked = locks.some((lock) => lock.action === "all" || (lock.action === "include") === lock.fields.has(name));
      if (locked) add("form-field", false, `form field "${name}" is locked by the signature (FieldMDP) and was changed`, num);
      else if (onlyValues && (permission === "form" || permission === "annotations")) add("form-fill", true, `form field object ${num} filled in`, num);
      else add("form-field", false, `form field object ${num} changed`, num);
    } else if (roles.annotations.has(num)) {
      add("annotation", permission === "annotations", `annotation object ${num} changed`, num);
    } else if (roles.contents.has(num)) {
      add("page-content", false, `page content stream ${num} was replaced`, num);
    } else if (num === kept.metadata && isMetadataStream(value)) {
      keep("metadata", "the document metadata (XMP) was updated", num);
    } else if (num === kept.info && value instanceof PDFDict) {
      keep("metadata", "the document information (/Info) was updated", num);
    } else if (kept.formResources.has(num) && onlyAdds(old, value, 2)) {
      // resources added for a new field's font; a font already named there keeps drawing the existing values
      keep("document-structure", `form default resources (/DR) object ${num}: entries added`, num);
    } else if (kept.structure.has(num) && !(value instanceof PDFRawStream)) {
      keep("document-structure", `logical structure object ${num} was updated`, num);
    } else if (isPageTreeNode(old) && writerMarkersOnly(old, value, same)) {
      keep("document-structure", `page tree node ${num}: a writer's private entry was added`, num);
    } else {
      add(isPageTreeNode(old) ? "pages" : "object-changed", false, `${describe(old)} object ${num} was replaced`, num);
    }
  }
  // a revision must carry something permitted (a signature, validation data, permitted form filling or annotations)
  if (!sawSignatureOrData && !changes.some((change) => change.allowed)) add("revision-without-signature", false, "a revision with neither a signature nor validation data");
  // bookkeeping alone is a revision of its own: only beside a signature, validation data or permitted filling is it the writing tool's
  const carriesPermitted = sawSignatureOrData || changes.some((change) => change.allowed);
  for (const change of bookkeeping) changes.push({ ...change, allowed: carriesPermitted });
  return changes;

  /** `value` keeps every entry of `old` and only adds entries, down to `depth` levels of sub-dictionaries (/DR /Font). */
  function onlyAdds(old: PDFObject | undefined, value: PDFObject | undefined, depth: number): boolean {
    const oldDict = before.lookup(old);
    const newDict = after.lookup(value);
    if (!(oldDict instanceof PDFDict) || !(newDict instanceof PDFDict)) return false;
    return changedKeys(oldDict, newDict, same).every((key) => {
      const name = PDFName.of(key);
      if (!oldDict.has(name)) return true;
      return depth > 0 && newDict.has(name) && onlyAdds(oldDict.get(name), newDict.get(name), depth - 1);
    });
  }

  function judgeCatalog(old: PDFDict, value: PDFDict) {
    const dssKey = PDFName.of("DSS");
    if (value.has(dssKey) && old.get(dssKey)?.toString() !== value.get(dssKey)?.toString() && same(old.get(dssKey), value.get(dssKey))) {
      sawSignatureOrData = true;
      add("validation-data", true, "validation data (DSS) written again", roles.catalog);
    }
    for (const key of changedKeys(old, value, same)) {
      if (key === "Metadata" && isMetadataStream(after.lookup(value.get(PDFName.of("Metadata"))))) keep("metadata", "the catalog names new document metadata (XMP)", roles.catalog);
      else if (key === "Perms") keep("document-structure", "catalog /Perms (usage rights) updated", roles.catalog);
      else if (key === "DSS") {
        sawSignatureOrData = true;
        add("validation-data", true, "validation data (DSS) added to the catalog", roles.catalog);
      } else if (key === "Extensions" || key === "Version") add("catalog", true, `catalog /${key} updated`, roles.catalog);
      else if (key === "AcroForm") judgeAcroForm(before.lookup(old.get(PDFName.of("AcroForm"))), after.lookup(value.get(PDFName.of("AcroForm"))), roles.catalog);
      else add("catalog", false, `catalog entry /${key} changed`, roles.catalog);
    }
  }

  function judgeAcroForm(old: PDFObject | undefined, value: PDFObject | undefined, num: number) {
    const oldDict = old instanceof PDFDict ? old : undefined;
    if (!(value instanceof PDFDict)) return add("form-field", false, "the interactive form was removed", num);
    for (const key of changedKeys(oldDict, value, same)) {
      if (key === "SigFlags" || key === "DR" || key === "DA" || key === "NeedAppearances") continue;
      if (key !== "Fields") {
        add("form-field", false, `interactive form entry /${key} changed`, num);
        continue;
      }
      const problem = appendOnly(before.lookup(oldDict?.get(PDFName.of("Fields"))), after.lookup(value.get(PDFName.of("Fields"))), isNewSignatureField);
      if (problem) add("form-field", false, `form fields: ${problem}`, num);
    }
  }

  function judgePage(old: PDFObject, value: PDFObject, num: number) {
    for (const key of changedKeys(old, value, same)) {
      if (key !== "Annots") {
        add(key === "Contents" || key === "Resources" ? "page-content" : "pages", false, `page object ${num}: /${key} changed`, num);
        continue;
      }
      const problem = appendOnly(before.lookup((old as PDFDict).get(PDFName.of("Annots"))), after.lookup((value as PDFDict).get(PDFName.of("Annots"))), isAllowedNewAnnotation);
      if (problem) add("annotation", false, `page object ${num} annotations: ${problem}`, num);
    }
  }
}

/** Old items all kept in their order (new ones may go anywhere: writers prepend too); every added item passes `allowed`. */
function appendOnly(old: PDFObject | undefined, value: PDFObject | undefined, allowed: (item: PDFObject) => boolean): string | undefined {
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

type Same = (a: PDFObject | undefined, b: PDFObject | undefined) => boolean;

function changedKeys(old: PDFObject | undefined, value: PDFObject | undefined, same: Same): string[] {
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
function writerMarkersOnly(old: PDFObject, value: PDFObject | undefined, same: Same): boolean {
  if (!(old instanceof PDFDict) || !(value instanceof PDFDict)) return false;
  return changedKeys(old, value, same).every((key) => !PAGE_TREE_KEYS.has(key) && !old.has(PDFName.of(key)) && !(value.get(PDFName.of(key)) instanceof PDFRef) && !(value.get(PDFName.of(key)) instanceof PDFDict));
}

function isPageTreeNode(obj: PDFObject): boolean {
  return obj instanceof PDFDict && obj.get(PDFName.of("Type")) === PDFName.of("Pages");
}

function describe(obj: PDFObject): string {
  const dict = obj instanceof PDFDict ? obj : obj instanceof PDFRawStream ? obj.dict : undefined;
  const type = dict?.get(PDFName.of("Type"));
  const subtype = dict?.get(PDFName.of("Subtype"));
  const words = [type, subtype].filter((name): name is PDFName => name instanceof PDFName).map((name) => name.toString());
  if (words.length) return words.join(" ");
  return obj instanceof PDFRawStream ? "stream" : obj instanceof PDFArray ? "array" : obj instanceof PDFDict ? "dictionary" : "value";
}
