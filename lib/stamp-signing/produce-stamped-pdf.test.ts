import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { createPkiHierarchy, type PkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { issueSignerCertificate } from "@/lib/pki/issue-certificate";
import type { CmsSignerInput } from "@/lib/pki/prepare-cms-signer";
import { createTimeStampToken } from "@/lib/tsa/create-time-stamp-token";
import { toPem } from "@/lib/pki/testing/openssl-cli";
import { validatePdf } from "@/e2e/fixtures/independent-validators";
import { buildCrl } from "@/lib/pki/build-crl";
import { verifyPdfSignatures } from "@/lib/verification/verify-pdf-signatures";
import { ZSignPdfFields } from "./schemas";
import { planAndProduceStampedPdf, type StampSigningCalls } from "./produce-stamped-pdf";
import { FIXTURES_DIR } from "@/test/fixtures-dir";
import { damagePdf } from "@/lib/pdf/test-support/damage-pdf";
import { recordStages } from "@/lib/runtime/request-timing";
import { cpuTasks } from "@/lib/server/cpu-tasks";

const FIXTURES = FIXTURES_DIR;
const pdf = new Uint8Array(readFileSync(`${FIXTURES}/pdfs/valid/libreoffice70-tiny.pdf`));
const portrait = new Uint8Array(readFileSync(`${FIXTURES}/images/portrait-413x531.jpg`));
const sha256 = (data: Uint8Array) => new Uint8Array(createHash("sha256").update(data).digest());
const fields = (extra: Record<string, string>) => ZSignPdfFields.parse({ names: "José", last_names: "Pérez", person_id: "12345678", ...extra });

describe("planAndProduceStampedPdf", () => {
  let pki: PkiHierarchy;
  let signer: CmsSignerInput;

  beforeAll(async () => {
    pki = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "https://crl.example.test" });
    const issued = await issueSignerCertificate(pki.issuing, { givenNames: "José", lastNames: "Pérez", nationality: "PER", idType: "DNI", idNumber: "12345678", validityMinutes: 15, crlBaseUrl: "https://crl.example.test" });
    signer = { certificateDer: issued.certificateDer, privateKey: issued.privateKey, chainDer: [pki.issuing.certificateDer] };
  });

  const currentCrls = async () => {
    const now = new Date();
    const window = { revoked: [], crlNumber: 1n, thisUpdate: now, nextUpdate: new Date(now.getTime() + 3_600_000) };
    return [await buildCrl(pki.issuing, window), await buildCrl(pki.root, window)];
  };

  /** Main-thread calls that count the claims, as the request's own would take the tx_token. */
  function calls() {
    const claims: { repaired: boolean }[] = [];
    const main: StampSigningCalls = {
      claim: async (facts) => (claims.push(facts), signer),
      validation: async () => ({ certificates: [pki.issuing.certificateDer, pki.root.certificateDer, pki.tsa.certificateDer], crls: await currentCrls(), anchorsDer: [pki.root.certificateDer], revocationUnavailable: [] }),
      timestamp: (digest) =>
        createTimeStampToken({ digest, hashAlgorithm: "SHA-256", tsa: { ...pki.tsa, chainDer: [pki.issuing.certificateDer] }, serialNumber: 1n, policyOid: "1.3.6.1.4.1.99999.1.1", includeCertificates: true }),
    };
    return { claims, main };
  }

  const task = (bytes: Uint8Array, extra: Record<string, string>, image?: Uint8Array) => ({
    pdf: bytes,
    image,
    fields: fields(extra),
    txToken: "ABCDEFGHIJ0123456789",
    environment: "quality" as const,
    verifyUrl: "https://example.test/verify/ABCDEFGHIJ0123456789",
  });

  it.each([
    ["a file that is no PDF", new TextEncoder().encode("not a pdf at all"), {}, undefined, "INVALID_PDF"],
    ["a page the document lacks", pdf, { page: "9", position_x: "40", position_y: "40" }, portrait, "PAGE_NOT_FOUND"],
    ["a stamp past the page edge", pdf, { page: "1", position_x: "5000", position_y: "40" }, portrait, "STAMP_OUT_OF_PAGE"],
    ["an image that is no image", pdf, { page: "1", position_x: "40", position_y: "40" }, new TextEncoder().encode("GIF89a...."), "INVALID_IMAGE"],
  ] as const)("refuses %s before claiming the transaction", async (_, bytes, extra, image, code) => {
    const { claims, main } = calls();
    const attempt = planAndProduceStampedPdf(task(bytes, extra, image), main);
    await expect(attempt).rejects.toSatisfy((error) => isAppError(error) && error.code === code);
    expect(claims).toEqual([]);
  });

  it("claims once, then signs with the image it checked; the output passes validate-pdf", async () => {
    const { claims, main } = calls();
    const result = await planAndProduceStampedPdf(task(pdf, { page: "1", position_x: "40", position_y: "40", qr_type: "auto" }, portrait), main);
    expect(claims).toEqual([{ repaired: false }]);
    expect(Buffer.from(sha256(result.pdf)).toString("hex")).toBe(result.sha256);
    const report = validatePdf(result.pdf, toPem(pki.root.certificateDer));
    expect(report.pass, report.output).toBe(true);
    // the level derived from what the task built is the one the full verifier finds in the output
    const verified = await verifyPdfSignatures(result.pdf, [pki.root.certificateDer]);
    expect(result.padesLevel).toBe("B-LT");
    expect(verified.signatures.at(-1)?.level).toBe(result.padesLevel);
  });

  /** `bytes` at the start of a buffer with room after it, as an upload moved to the worker arrives (collect-upload.ts). */
  const withRoom = (bytes: Uint8Array, room = 256 * 1024) => {
    const roomy = new Uint8Array(bytes.length + room);
    roomy.set(bytes);
    return roomy.subarray(0, bytes.length);
  };

  it("writes the signature's and the DSS's revisions after an upload that has room, in its own buffer; the upload's bytes stay as they were and the output passes validate-pdf", async () => {
    const { main } = calls();
    const upload = withRoom(pdf);
    const result = await planAndProduceStampedPdf({ ...task(upload, { page: "1", position_x: "40", position_y: "40", qr_type: "auto" }, portrait), pdfTailIsFree: true }, main);
    expect(result.pdf.buffer).toBe(upload.buffer);
    expect(result.pdf.byteOffset).toBe(0);
    expect(Buffer.from(upload).equals(Buffer.from(pdf))).toBe(true);
    expect(Buffer.from(result.pdf.subarray(0, pdf.length)).equals(Buffer.from(pdf))).toBe(true);
    const report = validatePdf(result.pdf, toPem(pki.root.certificateDer));
    expect(report.pass, report.output).toBe(true);
    expect(Buffer.from(sha256(result.pdf)).toString("hex")).toBe(result.sha256);
  });

  it("copies when the room is not given, or when the upload had to be rebuilt (the rebuilt bytes have no room)", async () => {
    const { main } = calls();
    const notGiven = withRoom(pdf);
    const copied = await planAndProduceStampedPdf(task(notGiven, {}), main);
    expect(copied.pdf.buffer).not.toBe(notGiven.buffer);
    expect(new Uint8Array(notGiven.buffer, pdf.length).every((byte) => byte === 0)).toBe(true);
    const damaged = withRoom(damagePdf(pdf, "xref-offsets-shifted"));
    const rebuilt = await planAndProduceStampedPdf({ ...task(damaged, {}), pdfTailIsFree: true }, main);
    expect(rebuilt.pdf.buffer).not.toBe(damaged.buffer);
    expect(new Uint8Array(damaged.buffer, damaged.length).every((byte) => byte === 0)).toBe(true);
    const report = validatePdf(rebuilt.pdf, toPem(pki.root.certificateDer));
    expect(report.pass, report.output).toBe(true);
  });

  it("asks for the validation data while it signs, and fails with that step's error when it fails", async () => {
    const { main } = calls();
    const order: string[] = [];
    const refused = new Error("CRL store unavailable");
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const overlapped: StampSigningCalls = {
      ...main,
      // answered only once the signature's time-stamp was asked for: the worker did not wait for it first
      validation: async () => {
        order.push("validation asked");
        await answered;
        throw refused;
      },
      timestamp: (digest) => {
        order.push("time-stamp asked");
        answer();
        return main.timestamp(digest);
      },
    };
    await expect(planAndProduceStampedPdf(task(pdf, {}), overlapped)).rejects.toBe(refused);
    expect(order).toEqual(["validation asked", "time-stamp asked"]);
  });

  it("charges the validation data to dss only for the time the task waits for it: the stages of the task (as the worker runs it) add up to no more than its time", async () => {
    const { main } = calls();
    // an answer that comes long after the drawing and signing it overlaps
    const slowValidation: StampSigningCalls["validation"] = (signer) => new Promise((resolve) => setTimeout(() => resolve(main.validation(signer)), 150));
    const answers = { ...main, validation: slowValidation } as Record<string, (...args: unknown[]) => unknown>;
    const context = { call: (name: string, ...args: unknown[]) => answers[name](...args) } as Parameters<(typeof cpuTasks)["plan-and-produce-stamped-pdf"]>[1];
    const { result, stages, totalMs } = await recordStages(async () => cpuTasks["plan-and-produce-stamped-pdf"](task(pdf, { page: "1", position_x: "40", position_y: "40", qr_type: "auto" }, portrait), context));
    expect(result.padesLevel).toBe("B-LT");
    const staged = Object.values(stages).reduce((sum, ms) => sum + (ms ?? 0), 0);
    // stages are exclusive (request-timing.ts): timing the call itself charged the 150 ms twice
    expect(staged).toBeLessThanOrEqual(totalMs + 1);
    // how much of the 150 ms is still to wait at the DSS depends on the machine's speed: only that it is there
    expect(stages.dss).toBeGreaterThan(0);
    expect(stages["stamp-draw"]).toBeGreaterThan(0);
  });
});
