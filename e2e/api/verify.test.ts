import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendRevision, edited, locateSignature, nextObjectNumber, replaceBytes, streamBody, view } from "@/lib/verification/testing/forge-pdf";
import { validatePdf } from "../fixtures/independent-validators";
import { startTestServer, type TestServer } from "../fixtures/start-test-server";
import { StampApiClient, fixture } from "../fixtures/stamp-api-client";
import type { VerificationReport } from "@/lib/verification/verification-report";

/** The verifier's answer: a report on success, the stamp-API error shape otherwise. */
type VerifyAnswer = VerificationReport & { success: boolean; message?: string };

let server: TestServer;
let api: StampApiClient;
let caPem: string;
let stamped: Uint8Array;
let signedTwice: Uint8Array;

const contract = fixture("pdfs/valid/libreoffice74-contrato-a4.pdf");
const portrait = fixture("images/portrait-413x531.jpg");
const signer = { names: "Ana", last_names: "Rojas Díaz", person_id: "45493496", nationality: "PER", person_id_type: "DNI" };
const PAY = "BT /F1 24 Tf 72 400 Td (Pagar 1.000.000) Tj ET";

async function signThroughApi(pdf: Uint8Array, fields: Record<string, string | number> = {}): Promise<Uint8Array> {
  const response = await api.signPdf(fields, { pdf, image: fields.page ? portrait : undefined });
  const body = await response.json();
  expect(body, JSON.stringify(body).slice(0, 300)).toMatchObject({ success: true });
  return new Uint8Array(Buffer.from(body.signed_pdf, "base64"));
}

async function verify(pdf: Uint8Array): Promise<{ status: number; body: VerifyAnswer }> {
  const form = new FormData();
  form.append("file", new Blob([pdf as BlobPart], { type: "application/pdf" }), "documento.pdf");
  const response = await fetch(`${server.baseUrl}/api/verify`, { method: "POST", body: form });
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  server = await startTestServer();
  api = new StampApiClient(server.baseUrl);
  await api.login("v2");
  caPem = await api.caPem();
  stamped = await signThroughApi(contract, { ...signer, page: 1, position_x: 300, position_y: 60, qr_type: "auto" });
  signedTwice = await signThroughApi(stamped);
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

describe("POST /api/verify on outputs of the stamp API", () => {
  it("a stamp output and the same file signed again are valid and trusted, with levels and the DSS as a permitted addition", async () => {
    for (const [pdf, count] of [[stamped, 1], [signedTwice, 2]] as const) {
      expect(validatePdf(pdf, caPem).pass).toBe(true);
      const { status, body } = await verify(pdf);
      expect(status).toBe(200);
      expect(body).toMatchObject({ success: true, verdict: "valid" });
      expect(body.signatures).toHaveLength(count);
      for (const signature of body.signatures) {
        expect(signature).toMatchObject({ kind: "signature", integrity: "intact", trusted: true, status: "valid", changesAfter: [] });
        expect(["B-T", "B-LT", "B-LTA"]).toContain(signature.level);
        expect(signature.timeStamp).toMatchObject({ valid: true, matchesSignature: true, trusted: true });
      }
    }
  });

  it.each([
    ["USF: /Contents zeroed", (pdf: Uint8Array) => { const at = locateSignature(pdf); return replaceBytes(pdf, at.contentsStart + 1, "0".repeat(at.contentsEnd - at.contentsStart - 2)); }, "invalid"],
    ["incremental saving: new page text", (pdf: Uint8Array) => {
      const { page, pageRef } = view(pdf);
      const n = nextObjectNumber(pdf);
      return appendRevision(pdf, [{ num: n, body: streamBody(PAY) }, { num: pageRef.objectNumber, body: edited(page, { Contents: `${n} 0 R` }) }]);
    }, "changed"],
    ["incremental saving: objects without a cross-reference entry", (pdf: Uint8Array) => {
      const { page, pageRef } = view(pdf);
      const n = nextObjectNumber(pdf);
      return appendRevision(pdf, [{ num: n, body: streamBody(PAY) }, { num: pageRef.objectNumber, body: edited(page, { Contents: `${n} 0 R` }) }], { startxrefOnly: true });
    }, "changed"],
  ])("%s on the file signed twice: %s, never valid", async (_name, forge, verdict) => {
    const { status, body } = await verify(forge(signedTwice));
    expect(status).toBe(200);
    expect(body.verdict).toBe(verdict);
    expect(body.signatures[0].status).not.toBe("valid");
  });

  it("answers an unreadable upload with the stamp-API error shape, naming the file", async () => {
    const { status, body } = await verify(new TextEncoder().encode("%PDF-1.7 truncated"));
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false });
    expect(JSON.stringify(body)).not.toMatch(/at \w+ \(|node_modules/);
  });
});
