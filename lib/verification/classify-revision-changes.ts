import { PDFDict, PDFName, PDFRawStream, PDFRef, type PDFObject } from "pdf-lib";
import type { LazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { sameContent } from "./compare-pdf-objects";
import { appendOnly, changedKeys, describe, isPageTreeNode, sameObject, writerMarkersOnly } from "./compare-revision-entries";
import { findDanglingReferences, type WalkBudget } from "./find-dangling-references";
import { isMetadataStream, readBookkeepingRoles } from "./read-bookkeeping-roles";
import { readDrawnObjects, readNameTreeNodes, sameActiveNameTrees } from "./read-drawn-objects";
import { readDssObjects, readRoles } from "./read-revision-roles";
import { objectIn, type Revision } from "./read-revisions";

/**
 * What later revisions may do, from the DocMDP permission in force: P=1 "none", P=2 "form", P=3
 * "annotations"; "open" when no certification signature restricts anything (ISO 32000-2 §12.8.2.2:
 * form filling and annotations, FieldMDP locks aside); "signatures" is P=2 without form filling, for tests.
 */
export type ChangePermission = "none" | "signatures" | "form" | "annotations" | "open";

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
  | "object-defined-later"
  | "signature-field"
  | "visible-change";

/**
 * `renderable`: forbidden by the object rules only because it may change what a page shows (a font, a
 * content stream, an unsigned save); the render check allows it when every page renders the same.
 */
export type Change = { revision: number; kind: ChangeKind; allowed: boolean; object?: number; detail: string; renderable?: boolean };

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
  const add = (kind: ChangeKind, allowed: boolean, detail: string, object?: number, renderable = false) => changes.push({ revision: revision.index, kind, allowed, object, detail, ...(renderable && !allowed ? { renderable } : {}) });
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
  const drawn = readDrawnObjects(before, catalogBefore);
  const nameTree = readNameTreeNodes(before, catalogBefore);
  const formOpen = permission === "form" || permission === "annotations" || permission === "open";
  const annotationsOpen = permission === "annotations" || permission === "open";

  // an object already in the DSS may be updated; an object cannot become validation data by being linked from it
  const dssBefore = readDssObjects(before, rootBefore.objectNumber);
  const dss = new Set([...readDssObjects(after, rootAfter.objectNumber)].filter((num) => dssBefore.has(num)));
  const signatureAllowed = (ref: PDFObject | undefined) => {
    if (!(ref instanceof PDFRef)) return false;
    const added = newSignatures.get(ref.objectNumber);
    return !!added?.intact && (added.kind === "document-timestamp" || permission !== "none");
  };
  // the next signer's empty field, new in this revision (a signing workflow prepares it; pyHanko's rule too)
  const emptySignatureFields = new Set<number>();
  const isNewSignatureField = (ref: PDFObject) => {
    const field = after.lookupDict(ref);
    if (!field) return false;
    const ownerRef = field.get(PDFName.of("FT")) ? ref : field.get(PDFName.of("Parent"));
    const owner = after.lookupDict(ownerRef);
    if (owner?.get(PDFName.of("FT")) !== PDFName.of("Sig")) return false;
    if (signatureAllowed(owner.get(PDFName.of("V")))) return true;
    const empty = !owner.has(PDFName.of("V")) && ownerRef instanceof PDFRef && objectIn(before, ownerRef.objectNumber) === undefined && permission !== "none";
    if (empty) emptySignatureFields.add(ownerRef.objectNumber);
    return empty;
  };
  const newAnnotations = new Set<number>();
  const isAllowedNewAnnotation = (ref: PDFObject) => {
    if (isNewSignatureField(ref)) return true;
    const annotation = after.lookupDict(ref);
    const allowed = annotationsOpen && annotation?.get(PDFName.of("Subtype")) !== PDFName.of("Widget");
    if (allowed && ref instanceof PDFRef) newAnnotations.add(ref.objectNumber);
    return allowed;
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
      else if (onlyValues && formOpen) add("form-fill", true, `form field object ${num} filled in`, num);
      else add("form-field", false, `form field object ${num} changed`, num);
    } else if (roles.annotations.has(num)) {
      add("annotation", annotationsOpen, `annotation object ${num} changed`, num);
    } else if (roles.contents.has(num)) {
      add("page-content", false, `page content stream ${num} was replaced`, num, true);
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
    } else if (nameTree.has(num)) {
      keep("document-structure", `name tree node ${num} was updated`, num);
    } else {
      // what the signed pages draw with may be re-written only if the pages render the same (the render check)
      add(isPageTreeNode(old) ? "pages" : "object-changed", false, `${describe(old)} object ${num} was replaced`, num, drawn.has(num));
    }
  }
  for (const num of emptySignatureFields) add("signature-field", true, `an empty signature field (object ${num}) was added`, num);
  for (const num of newAnnotations) add("annotation", true, `annotation object ${num} was added`, num);
  // a revision must carry something permitted; an unsigned save is allowed only if nothing it changed is visible (the render check)
  if (!sawSignatureOrData && !changes.some((change) => change.allowed)) add("revision-without-signature", false, "a revision with neither a signature nor validation data", undefined, true);
  // bookkeeping alone is a revision of its own: beside a signature, validation data or permitted filling it is the writing tool's; alone, the render check decides
  const carriesPermitted = sawSignatureOrData || changes.some((change) => change.allowed);
  for (const change of bookkeeping) changes.push(carriesPermitted ? change : { ...change, allowed: false, renderable: true });
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
      else if (key === "Names" && sameActiveNameTrees(old.get(PDFName.of("Names")), value.get(PDFName.of("Names")), same, { old: (o) => before.lookup(o), now: (o) => after.lookup(o) })) keep("document-structure", "catalog /Names (destinations, appearances) updated", roles.catalog);
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
        const drawing = key === "Contents" || key === "Resources";
        add(drawing ? "page-content" : "pages", false, `page object ${num}: /${key} changed`, num, drawing);
        continue;
      }
      const problem = appendOnly(before.lookup((old as PDFDict).get(PDFName.of("Annots"))), after.lookup((value as PDFDict).get(PDFName.of("Annots"))), isAllowedNewAnnotation);
      if (problem) add("annotation", false, `page object ${num} annotations: ${problem}`, num);
    }
  }
}

export { sameObject } from "./compare-revision-entries";
