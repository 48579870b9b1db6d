import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { PDFArray, PDFName, PDFRef } from "pdf-lib";
import { beforeAll, describe, expect, test } from "vitest";
import { finishLongTermValidation } from "@/lib/pdf/add-document-timestamp";
import { openLazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { signPdf } from "@/lib/pdf/sign-pdf";
import { createTestPki, type TestPki } from "@/lib/pdf/test-support/create-test-pki";
import { validatePdf } from "@/lib/pdf/test-support/run-validators";
import { appendRevision, edited, nextObjectNumber, view } from "@/lib/verification/testing/forge-pdf";
import { readDssMaterial } from "@/lib/verification/read-dss-material";
import { fixturePath } from "@/test/fixtures-dir";

const CONTRACT = new Uint8Array(readFileSync(fixturePath("pdfs/valid/libreoffice74-contrato-a4.pdf")));

let pki: TestPki;
let secondCrlDer: Uint8Array;
beforeAll(() => {
  pki = createTestPki();
  // a later CRL of the same CA (next CRL number): a distinct item that must also appear once
  execFileSync("openssl", ["ca", "-gencrl", "-config", "tsa.cnf", "-keyfile", "ca.key", "-cert", "ca.pem", "-out", "ca2.crl"], { cwd: pki.dir, stdio: "ignore" });
  execFileSync("openssl", ["crl", "-in", "ca2.crl", "-outform", "DER", "-out", "ca2.crl.der"], { cwd: pki.dir, stdio: "ignore" });
  secondCrlDer = new Uint8Array(readFileSync(path.join(pki.dir, "ca2.crl.der")));
});

const digest = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Entries of the DSS arrays of the file's last revision, decoded, and how many distinct items they hold. */
function dssCounts(bytes: Uint8Array) {
  const pdf = openLazyPdf(bytes);
  const catalog = pdf.lookupDict(pdf.trailer.get(PDFName.of("Root")))!;
  const dss = pdf.lookupDict(catalog.get(PDFName.of("DSS")))!;
  const entries = (key: string) => (pdf.lookup(dss.get(PDFName.of(key))) as PDFArray | undefined)?.size() ?? 0;
  const material = readDssMaterial(pdf);
  const perItem = (items: Uint8Array[]) => items.reduce((counts, item) => counts.set(digest(item), (counts.get(digest(item)) ?? 0) + 1), new Map<string, number>());
  return {
    certs: { entries: entries("Certs"), unique: new Set(material.certificatesDer.map(digest)).size, perItem: perItem(material.certificatesDer) },
    crls: { entries: entries("CRLs"), unique: new Set(material.crlsDer.map(digest)).size, perItem: perItem(material.crlsDer) },
  };
}

async function signAndAddValidationData(bytes: Uint8Array, crls: Uint8Array[]): Promise<Uint8Array> {
  const signed = await signPdf(bytes, { sign: pki.sign });
  // each round brings the whole chain again, as the stamp service does for every signature
  return finishLongTermValidation(signed, { certificates: [pki.signerCertDer, pki.caDer, pki.tsaCertDer, pki.caDer], crls });
}

describe("DSS de-duplication", () => {
  test("a PDF signed four times holds each certificate and each CRL once in /DSS /Certs and /CRLs", async () => {
    let bytes: Uint8Array = CONTRACT;
    const rounds = [[pki.crlDer], [pki.crlDer], [pki.crlDer, secondCrlDer], [secondCrlDer, pki.crlDer]];
    for (const crls of rounds) bytes = await signAndAddValidationData(bytes, crls);

    const counts = dssCounts(bytes);
    expect(counts.certs).toMatchObject({ entries: 3, unique: 3 });
    expect(counts.crls).toMatchObject({ entries: 2, unique: 2 });
    for (const der of [pki.signerCertDer, pki.caDer, pki.tsaCertDer]) expect(counts.certs.perItem.get(digest(der))).toBe(1);
    for (const der of [pki.crlDer, secondCrlDer]) expect(counts.crls.perItem.get(digest(der))).toBe(1);
    // still a valid four-signature document for an independent validator
    const file = path.join(pki.dir, "signed-four-times.pdf");
    writeFileSync(file, bytes);
    const validated = await validatePdf(file, pki.caPemPath);
    expect(validated.output).toMatch(/validate-pdf: PASS \(4 signatures\)/);
  });

  test("a DSS another tool wrote with duplicates (one of them Flate-compressed) gets no further copy from us", async () => {
    const signed = await signPdf(CONTRACT, { sign: pki.sign });
    const { catalog, catalogRef } = view(signed);
    const first = nextObjectNumber(signed);
    const raw = (der: Uint8Array, filter = "") => Buffer.concat([Buffer.from(`<< ${filter} /Length ${der.length} >>\nstream\n`, "latin1"), Buffer.from(der), Buffer.from("\nendstream", "latin1")]);
    const compressedCa = deflateSync(pki.caDer);
    const forged = appendRevision(signed, [
      { num: first, body: raw(pki.caDer) },
      { num: first + 1, body: raw(compressedCa, "/Filter /FlateDecode") },
      { num: first + 2, body: raw(pki.crlDer) },
      { num: first + 3, body: raw(pki.crlDer) },
      { num: first + 4, body: `<< /Certs [${first} 0 R ${first + 1} 0 R] /CRLs [${first + 2} 0 R ${first + 3} 0 R] >>` },
      { num: catalogRef.objectNumber, body: edited(catalog, { DSS: PDFRef.of(first + 4, 0) }) },
    ]);
    const before = dssCounts(forged);
    expect(before.certs).toMatchObject({ entries: 2, unique: 1 });
    expect(before.crls).toMatchObject({ entries: 2, unique: 1 });

    const updated = await finishLongTermValidation(forged, { certificates: [pki.signerCertDer, pki.caDer, pki.tsaCertDer], crls: [pki.crlDer, secondCrlDer] });
    const after = dssCounts(updated);
    // the other tool's duplicates stay as they were (its revision is not ours to rewrite); nothing already present is added again
    expect(after.certs.perItem.get(digest(pki.caDer))).toBe(2);
    expect(after.crls.perItem.get(digest(pki.crlDer))).toBe(2);
    expect(after.certs.perItem.get(digest(pki.signerCertDer))).toBe(1);
    expect(after.certs.perItem.get(digest(pki.tsaCertDer))).toBe(1);
    expect(after.crls.perItem.get(digest(secondCrlDer))).toBe(1);
    expect(after.certs.entries - before.certs.entries).toBe(2);
    expect(after.crls.entries - before.crls.entries).toBe(1);
  });
});
