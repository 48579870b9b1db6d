import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PDFDocument, PDFName, PDFRef } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { signPdf } from "@/lib/pdf/sign-pdf";
import { createTestPki, type TestPki } from "@/lib/pdf/test-support/create-test-pki";
import { fixturePath } from "@/test/fixtures-dir";
import { VALIDATE_PDF, VALIDATE_TSR } from "@/test/validators/commands";

let pki: TestPki;
let dir: string;
let signed: Uint8Array;

function validate(bytes: Uint8Array, name: string, ca = pki.caPemPath): { status: number | null; output: string } {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  const result = spawnSync(VALIDATE_PDF, [file, "--ca", ca], { encoding: "utf8", timeout: 180_000 });
  return { status: result.status, output: result.stdout + result.stderr };
}

/** One classic incremental update holding `objects` (number -> PDF text), with the trailer pointing at the previous one. */
function appendRevision(pdf: Uint8Array, objects: Record<number, string>, trailerExtra: string): Uint8Array {
  const text = Buffer.from(pdf).toString("latin1");
  const prev = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)![1]);
  const root = /\/Root (\d+ \d+ R)/.exec(text.slice(text.lastIndexOf("trailer")))![1];
  const size = Math.max(Number(/\/Size (\d+)/.exec(text.slice(text.lastIndexOf("trailer")))![1]), ...Object.keys(objects).map((n) => Number(n) + 1));
  let body = "\n";
  const offsets: Record<number, number> = {};
  for (const [n, content] of Object.entries(objects)) {
    offsets[Number(n)] = pdf.length + body.length;
    body += `${n} 0 obj\n${content}\nendobj\n`;
  }
  const xref = pdf.length + body.length;
  body += "xref\n";
  for (const n of Object.keys(offsets).map(Number).sort((a, b) => a - b)) body += `${n} 1\n${String(offsets[n]).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${size} /Root ${root} /Prev ${prev} ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.concat([Buffer.from(pdf), Buffer.from(body, "latin1")]));
}

async function catalogWith(pdf: Uint8Array, key: string, value: string): Promise<{ number: number; text: string }> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const ref = doc.context.trailerInfo.Root as PDFRef;
  const catalog = doc.catalog.clone(doc.context);
  catalog.delete(PDFName.of(key));
  return { number: ref.objectNumber, text: catalog.toString().replace(/>>\s*$/, `/${key} ${value}\n>>`) };
}

beforeAll(async () => {
  pki = createTestPki();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "validate-pdf-test-"));
  signed = await signPdf(new Uint8Array(fs.readFileSync(fixturePath("pdfs/valid/libreoffice70-tiny.pdf"))), { sign: pki.sign });
});

describe("test/validators/validate-pdf.mjs: the repository's own independent check", { timeout: 240_000 }, () => {
  it("passes a PDF our engine signed, with every validator's line", () => {
    const { status, output } = validate(signed, "good.pdf");
    expect(status, output).toBe(0);
    expect(output).toMatch(/PDFBox\+BC\s+ok\s+digest ok, CMS signature ok, \/Contents gap exact, covers its revision, chain trusted/);
    expect(output).toMatch(/pdfsig\s+ok\s+Signature is Valid\. \| Certificate is Trusted\./);
    expect(output).toMatch(/validate-pdf: PASS \(1 signature\)$/m);
  });

  it("fails a forged file: one byte changed inside the signed range", () => {
    const forged = new Uint8Array(signed);
    const at = Buffer.from(forged).indexOf("/MediaBox");
    forged[at + 1] = "m".charCodeAt(0);
    const { status, output } = validate(forged, "forged-byte.pdf");
    expect(status, output).toBe(1);
    expect(output).toContain("Digest mismatch");
    expect(output).toMatch(/pdfsig: signature 1 .*Digest Mismatch/);
  });

  it("fails bytes appended after the last %%EOF", () => {
    const { status, output } = validate(new Uint8Array(Buffer.concat([Buffer.from(signed), Buffer.from("% smuggled\n")])), "appended.pdf");
    expect(status, output).toBe(1);
    expect(output).toContain("byte(s) after the last %%EOF are not part of any revision");
  });

  it("fails an unsigned revision that changes the document, and accepts one that adds only a DSS", async () => {
    const changed = appendRevision(signed, { 900: "<< /Title (changed after signing) >>" }, "/Info 900 0 R ");
    const report = validate(changed, "changed.pdf");
    expect(report.status, report.output).toBe(1);
    expect(report.output).toContain("document modified after the last signature");

    const cat = await catalogWith(signed, "DSS", "901 0 R");
    const dssOnly = appendRevision(signed, { [cat.number]: cat.text, 901: "<< /Certs [] >>" }, "");
    const accepted = validate(dssOnly, "dss-only.pdf");
    expect(accepted.status, accepted.output).toBe(0);
    expect(accepted.output).toContain("add only validation data (DSS)");
  });

  it("fails a DSS whose VRI entry names no signature of the file, or lists a certificate the DSS lacks", async () => {
    const cat = await catalogWith(signed, "DSS", "901 0 R");
    const stranger = "0".repeat(40);
    const ownKey = createHash("sha1").update(Buffer.from(/\/Contents\s*<([0-9A-Fa-f]+)>/.exec(Buffer.from(signed).toString("latin1"))![1], "hex")).digest("hex").toUpperCase();
    const cert = Buffer.from(pki.caDer);
    const bad = appendRevision(
      signed,
      { [cat.number]: cat.text, 901: `<< /VRI << /${stranger} << >> /${ownKey} << /Cert [902 0 R] >> >> >>`, 902: `<< /Length ${cert.length} >>\nstream\n${cert.toString("latin1")}\nendstream` },
      "",
    );
    const { status, output } = validate(bad, "vri.pdf");
    expect(status, output).toBe(1);
    expect(output).toContain(`DSS /VRI key ${stranger} names no signature of this file`);
    expect(output).toContain(`DSS /VRI ${ownKey} /Cert[0] is not in the DSS /Certs`);
  });

  it("fails a signature whose chain does not reach the given anchor (ours and pdfsig's view)", () => {
    const other = createTestPki();
    const { status, output } = validate(signed, "other-ca.pdf", other.caPemPath);
    expect(status, output).toBe(1);
    expect(output).toContain("chain NOT trusted");
    expect(output).toMatch(/pdfsig: signature 1 .*Certificate issuer (is unknown|isn't Trusted)/);
  });
});

describe("test/validators/validate-tsr.mjs", () => {
  it("passes a token for its data and fails it for other data", async () => {
    const data = Buffer.from("bytes a time-stamp covers\n");
    const token = await pki.timestamp(createHash("sha256").update(data).digest());
    const files = { token: path.join(dir, "t.tst"), data: path.join(dir, "d.bin"), other: path.join(dir, "o.bin") };
    fs.writeFileSync(files.token, token);
    fs.writeFileSync(files.data, data);
    fs.writeFileSync(files.other, Buffer.from("other bytes\n"));
    const run = (dataFile: string) => spawnSync(VALIDATE_TSR, [files.token, "--token", "--data", dataFile, "--ca", pki.caPemPath], { encoding: "utf8" });
    const good = run(files.data);
    expect(good.status, good.stdout + good.stderr).toBe(0);
    expect(good.stdout).toContain("validate-tsr: PASS");
    const bad = run(files.other);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/validate-tsr: FAIL: openssl ts -verify/);
  });
});
