import fs from "node:fs";
import { PDFRef } from "pdf-lib";
import { beforeAll, describe, expect, test } from "vitest";
import { finishLongTermValidation } from "@/lib/pdf/add-document-timestamp";
import { openLazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { readFormState } from "@/lib/pdf/read-form-state";
import { classifyRevisionChanges, type ChangePermission, type FieldLock } from "./classify-revision-changes";
import { readRevisions } from "./read-revisions";
import { addToFields, appendRevision, edited, nextObjectNumber, view } from "./testing/forge-pdf";
import { makeGenuineOutputs, type GenuineOutputs } from "./testing/make-genuine-outputs";
import { withNewPageText } from "./testing/attack-catalogue";
import { verifyPdfSignatures } from "./verify-pdf-signatures";
import { fixturePath } from "@/test/fixtures-dir";

let genuine: GenuineOutputs;
/** A signed document with a text field "Nombre", and the same with the field filled in a later revision. */
let signedForm: Uint8Array;
let filled: Uint8Array;

beforeAll(async () => {
  genuine = await makeGenuineOutputs();
  const withForm = withEmptyForm(genuine.original);
  const { pageRef, page } = view(withForm);
  const n = nextObjectNumber(withForm);
  const withField = appendRevision(withForm, [
    { num: n, body: `<< /FT /Tx /T (Nombre) /Type /Annot /Subtype /Widget /Rect [72 700 300 720] /P ${pageRef} >>` },
    { num: pageRef.objectNumber, body: edited(page, { Annots: `[${n} 0 R]` }) },
    ...addToFields(withForm, n),
  ]);
  signedForm = await genuine.signLongTerm(withField);
  const pdf = openLazyPdf(signedForm);
  filled = appendRevision(signedForm, [{ num: n, body: edited(pdf.lookupDict(PDFRef.of(n, 0))!, { V: "(Mallory)" }) }]);
}, 120_000);

/** The fixture has no form: give its catalog an empty one first, so addToFields has a /Fields to extend. */
function withEmptyForm(bytes: Uint8Array): Uint8Array {
  const { catalog, catalogRef } = view(bytes);
  return appendRevision(bytes, [{ num: catalogRef.objectNumber, body: edited(catalog, { AcroForm: "<< /Fields [] >>" }) }]);
}

/** The changes the last revision of `bytes` makes, judged with `permission` and `locks`. */
function lastRevisionChanges(bytes: Uint8Array, permission: ChangePermission, locks: FieldLock[] = []) {
  const revisions = readRevisions(bytes, openLazyPdf(bytes));
  const last = revisions[revisions.length - 1];
  return classifyRevisionChanges(revisions[last.index - 1].state(), last, new Map(), permission, locks);
}

describe("form filling and DocMDP / FieldMDP", () => {
  test("the signed form is valid as signed", async () => {
    expect((await verifyPdfSignatures(signedForm, genuine.anchorsDer)).verdict).toBe("valid");
  });

  // issue 27: an approval signature permits form filling (ISO 32000, EU DSS, pyHanko); only DocMDP P=1 or a FieldMDP lock forbid it
  test("after an approval signature, filling a field is permitted and listed", async () => {
    const report = await verifyPdfSignatures(filled, genuine.anchorsDer);
    expect(report.verdict).toBe("valid");
    expect(report.signatures[0].allowedChangesAfter.map((c) => c.kind)).toContain("form-fill");
  });

  test("DocMDP P=2 allows it, P=1 does not", () => {
    const allowed = lastRevisionChanges(filled, "form").filter((c) => c.kind === "form-fill");
    expect(allowed).toHaveLength(1);
    expect(allowed[0].allowed).toBe(true);
    expect(lastRevisionChanges(filled, "none").some((c) => c.kind === "form-field" && !c.allowed)).toBe(true);
  });

  test("FieldMDP: a field the signature locked stays locked even under P=2; an unlocked one may be filled", () => {
    expect(lastRevisionChanges(filled, "form", [{ action: "include", fields: new Set(["Nombre"]) }]).some((c) => c.kind === "form-field" && !c.allowed)).toBe(true);
    expect(lastRevisionChanges(filled, "form", [{ action: "all" }]).some((c) => c.kind === "form-field" && !c.allowed)).toBe(true);
    expect(lastRevisionChanges(filled, "form", [{ action: "exclude", fields: new Set(["Nombre"]) }]).every((c) => c.allowed)).toBe(true);
  });

  test("P=1 (certified, no changes): a later signature is refused, validation data is not", () => {
    const signatureRevision = (() => {
      const revisions = readRevisions(genuine.signedTwice, openLazyPdf(genuine.signedTwice));
      const second = revisions[3];
      return classifyRevisionChanges(revisions[2].state(), second, new Map([[objectOfSecondSignature(), { kind: "signature", intact: true }]]), "none");
    })();
    expect(signatureRevision.some((c) => c.kind === "signature" && !c.allowed)).toBe(true);
    const dssOnly = lastRevisionChanges(genuine.stamp, "none");
    expect(dssOnly.every((c) => c.allowed)).toBe(true);
  });

  test("a certified P=1 file from another tool: DSS and a document time-stamp added later keep it unchanged, new page text does not", async () => {
    const certified = new Uint8Array(fs.readFileSync(fixturePath("pdfs/signed-by-others/jsignpdf-docmdp1-certified.pdf")));
    const withDss = await finishLongTermValidation(certified, { certificates: [genuine.pki.tsa.certificateDer], crls: [] });
    expect((await verifyPdfSignatures(withDss, [])).signatures[0].changesAfter).toEqual([]);
    expect((await verifyPdfSignatures(withNewPageText(withDss), [])).signatures[0].status).toBe("changed");
  });
});

function objectOfSecondSignature(): number {
  const pdf = openLazyPdf(genuine.signedTwice);
  const { catalog } = view(genuine.signedTwice);
  return readFormState(pdf, catalog).signatureValues[1].ref!.objectNumber;
}
