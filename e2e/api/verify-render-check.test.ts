import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import { SIGNED_TEXT_RECT } from "@/lib/verification/testing/attack-catalogue";
import { fillField, withEmptyTextField, withFontRewritten } from "@/lib/verification/testing/forge-form-changes";
import type { VerificationReport } from "@/lib/verification/verification-report";
import { fixturePath } from "../../test/fixtures-dir";
import { startTestServer, type TestServer } from "../fixtures/start-test-server";
import { StampApiClient } from "../fixtures/stamp-api-client";

/**
 * Issue 41, the render check through the built server: POST /api/verify renders the signed revision
 * and the final document and decides by what the page shows. A shadow attack through a form field is
 * caught and named; a fill of a blank field and a font re-saved without a visible change are accepted.
 */
type VerifyAnswer = VerificationReport & { success: boolean; message?: string };

let server: TestServer;
let api: StampApiClient;

const contract = new Uint8Array(fs.readFileSync(fixturePath("pdfs/valid/libreoffice74-contrato-a4.pdf")));
// a blank band of the contract's first page (its text runs from y 556 to 785)
const BLANK_RECT = [72, 420, 400, 450] as const;

async function signThroughApi(pdf: Uint8Array): Promise<Uint8Array> {
  const response = await api.signPdf({}, { pdf });
  const body = await response.json();
  expect(body, JSON.stringify(body).slice(0, 300)).toMatchObject({ success: true });
  return new Uint8Array(Buffer.from(body.signed_pdf, "base64"));
}

async function verify(pdf: Uint8Array): Promise<VerifyAnswer> {
  const form = new FormData();
  form.append("file", new Blob([pdf as BlobPart], { type: "application/pdf" }), "documento.pdf");
  const response = await fetch(`${server.baseUrl}/api/verify`, { method: "POST", body: form });
  expect(response.status).toBe(200);
  return response.json();
}

/** The contract with an empty text field at `rect`, signed by the stamp API: the field is part of what was signed. */
async function signedWithField(rect: readonly number[]) {
  const { bytes, field } = withEmptyTextField(contract, "monto", rect);
  const signed = await signThroughApi(bytes);
  expect((await verify(signed)).verdict).toBe("valid");
  return { signed, field };
}

beforeAll(async () => {
  server = await startTestServer();
  api = new StampApiClient(server.baseUrl);
  await api.login("v2");
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

describe("POST /api/verify: the render check", () => {
  it("shadow attack: a field lying over signed text, filled after signing, is changed, naming page and field", async () => {
    const { signed, field } = await signedWithField(SIGNED_TEXT_RECT);
    const body = await verify(fillField(signed, field, SIGNED_TEXT_RECT));
    expect(body).toMatchObject({ success: true, verdict: "changed" });
    expect(body.signatures[0].status).toBe("changed");
    const visible = body.signatures[0].changesAfter.filter((change) => change.kind === "visible-change");
    expect(visible.map((change) => change.detail).join(" ")).toMatch(/page 1: field "monto" draws over content that was visible when signed/);
  });

  it("a genuine fill of a field over blank space is accepted, recorded as a form fill", async () => {
    const { signed, field } = await signedWithField(BLANK_RECT);
    const body = await verify(fillField(signed, field, BLANK_RECT));
    expect(body).toMatchObject({ success: true, verdict: "valid" });
    expect(body.signatures[0]).toMatchObject({ status: "valid", changesAfter: [] });
    expect(body.signatures[0].allowedChangesAfter.map((change) => change.kind)).toContain("form-fill");
  });

  it("a font of the signed page re-saved without a visible change is accepted; one drawing other glyphs is changed", async () => {
    const signed = await signThroughApi(contract);
    const resaved = await verify(withFontRewritten(signed, (dict) => `${dict.slice(0, -2)} /Name /F1 >>`));
    expect(resaved).toMatchObject({ success: true, verdict: "valid" });
    expect(resaved.signatures[0].allowedChangesAfter.find((change) => change.kind === "object-changed")?.detail).toMatch(/every page renders as signed/);

    const replaced = await verify(withFontRewritten(signed, () => "<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>"));
    expect(replaced.verdict).toBe("changed");
    expect(replaced.signatures[0].changesAfter.map((change) => change.kind)).toEqual(expect.arrayContaining(["object-changed", "visible-change"]));
  });
});
