import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { PdfError } from "@/lib/pdf/errors";
import { verifyPdfSignatures } from "./verify-pdf-signatures";
import { fixturePath } from "@/test/fixtures-dir";

const DIR = fixturePath("pdfs/signed-by-others");
const read = (name: string) => new Uint8Array(fs.readFileSync(path.join(DIR, name)));

describe("verifyPdfSignatures over PDFs signed by other tools", () => {
  test.each([
    ["jsignpdf-openpdf-approval.pdf", "account:admin, admin"],
    ["jsignpdf-docmdp1-certified.pdf", "admin"],
    ["libreoffice75-signed-incremental.pdf", "ONDŘEJ MACHULDA"],
    ["qpdf-test-signed-incremental.pdf", "John Doe"],
    ["itext-qualified-signature-2011.pdf", "Paul Frey (Qualified Signature)"],
  ])("%s: one intact signature by %s, not trusted here, not modified after", async (name, signer) => {
    const { signatures, verdict } = await verifyPdfSignatures(read(name), []);
    expect(signatures).toHaveLength(1);
    expect(signatures[0]).toMatchObject({ kind: "signature", signer, integrity: "intact", trusted: false, modifiedAfter: false, coversWholeDocument: true, status: "untrusted", changesAfter: [] });
    expect(verdict).toBe("untrusted");
    expect(signatures[0].signingTime?.at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  test.each([
    ["signed-tampered-digest-mismatch.pdf", "digest-mismatch"],
    // pdfsig says "Digest Mismatch"; the signed bytes also stop short of any revision end (13898 of 23068)
    ["fuzzed-pkcs7-sha1-digest-mismatch.pdf", "ranges-invalid"],
    ["pdfjs-signed-digest-mismatch.pdf", "ranges-invalid"],
  ])("%s: integrity fails (%s)", async (name, integrity) => {
    const { signatures, verdict } = await verifyPdfSignatures(read(name), []);
    expect(signatures).toHaveLength(1);
    expect(signatures[0].integrity).toBe(integrity);
    expect(verdict).toBe("invalid");
  });

  // issue 41: an unsigned save that only replaces /Info changes nothing the signature covers and
  // nothing visible, so it is recorded as a finding, not held against the signature (its forged
  // counterpart, an unsigned save that draws over the text, is in verify-render-check.test.ts)
  test("a signature followed by an unsigned incremental update of /Info is intact, modified after signing, and the update is a finding", async () => {
    const { signatures, verdict } = await verifyPdfSignatures(read("signed-then-incremental-update.pdf"), []);
    expect(signatures).toMatchObject([{ integrity: "intact", modifiedAfter: true, coversWholeDocument: false, status: "untrusted" }]);
    expect(signatures[0].changesAfter).toEqual([]);
    expect(signatures[0].allowedChangesAfter.map((change) => [change.revision, change.kind])).toEqual([
      [2, "revision-without-signature"],
      [2, "metadata"],
    ]);
    expect(verdict).toBe("untrusted");
  });

  test("two signatures: the first is followed by the second revision, the second covers the file", async () => {
    const { signatures } = await verifyPdfSignatures(read("poppler-two-signatures.pdf"), []);
    expect(signatures.map((s) => [s.integrity, s.modifiedAfter, s.status])).toEqual([["intact", true, "untrusted"], ["intact", false, "untrusted"]]);
    expect(signatures[0].allowedChangesAfter.map((change) => change.kind)).toContain("signature");
  });

  test("signature time stamps are read from the unsigned attributes", async () => {
    const { signatures } = await verifyPdfSignatures(read("jsignpdf-docmdp1-certified.pdf"), []);
    // a valid token from a TSA outside our anchors (freetsa.org, self-signed root)
    expect(signatures[0].timeStamp).toMatchObject({ at: "2025-12-07T17:14:08.000Z", matchesSignature: true, valid: true, trusted: false, authority: "www.freetsa.org" });
  });

  test("a PDF without signatures reports none", async () => {
    expect(await verifyPdfSignatures(read("ur3-usage-rights-only.pdf"), [])).toMatchObject({ signatures: [], verdict: "unsigned" });
  });

  test.each([
    ["not a PDF", new TextEncoder().encode("hello, this is not a PDF at all"), "INVALID_PDF"],
    ["truncated", read("jsignpdf-openpdf-approval.pdf").subarray(0, 5000), "INVALID_PDF"],
    ["encrypted", read("acrobat-encrypted-and-signed.pdf"), "ENCRYPTED_PDF"],
  ])("%s input is refused with a PdfError", async (_name, bytes, code) => {
    const error = await verifyPdfSignatures(bytes, []).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PdfError);
    expect((error as PdfError).code).toBe(code);
  });

  test("a corrupted /Contents is reported as unreadable, not thrown", async () => {
    const bytes = read("jsignpdf-openpdf-approval.pdf");
    const at = Buffer.from(bytes).indexOf("/Contents <") + 11;
    bytes.fill(0x46, at, at + 64); // "FFFF…": not a CMS any more
    const { signatures } = await verifyPdfSignatures(bytes, []);
    expect(signatures[0].integrity).toBe("unreadable");
  });
});
