import { beforeAll, describe, expect, it } from "vitest";
import { ORG_DOMAIN, startTestServer, type TestServer } from "../fixtures/start-test-server";
import { StampApiClient, fixture } from "../fixtures/stamp-api-client";
import { stampApiSession } from "../fixtures/stamp-api-session";
import http from "node:http";
import { decodeQrOnPage, pageCount, pageText, qpdfCheck } from "../fixtures/independent-validators";

let server: TestServer;
let api: StampApiClient;

const contract = fixture("pdfs/valid/libreoffice74-contrato-a4.pdf");
const portrait = fixture("images/portrait-413x531.jpg");
const signer = { names: "José Ñúñez", last_names: "Pérez Güiraldes", person_id: "12345678", nationality: "PER", person_id_type: "DNI" };

const session = stampApiSession();
const { expectValid } = session;
beforeAll(() => {
  ({ server, api } = session.current());
});

function healthOnFreshConnection(baseUrl: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(`${baseUrl}/api/health`, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on("error", reject);
  });
}

async function signedPdfOf(response: Response): Promise<Uint8Array> {
  const body = await response.json();
  // the level our verifier measured on this output (issue 15): built-in certificates always reach B-LT
  expect(body, JSON.stringify(body).slice(0, 300)).toMatchObject({ success: true, message: "OK", pades_level: "B-LT" });
  return new Uint8Array(Buffer.from(body.signed_pdf, "base64"));
}

describe("signPDF", () => {
  it("signs without a stamp (agente) and the signature validates independently", async () => {
    const response = await api.signPdf({}, { pdf: contract });
    expect(response.status).toBe(200);
    const pdf = await signedPdfOf(response);
    expect(Buffer.from(pdf.subarray(0, contract.length)).equals(Buffer.from(contract))).toBe(true);
    expectValid(pdf, 1);
  });

  it("draws a size-1 stamp with an auto QR on page 1", async () => {
    const response = await api.signPdf({ ...signer, page: 1, position_x: 300, position_y: 60, qr_type: "auto", tx_token: "AutoQrToken000000001" }, { pdf: contract, image: portrait });
    const pdf = await signedPdfOf(response);
    expectValid(pdf, 1);
    const qr = decodeQrOnPage(pdf, 1);
    expect(qr).not.toBeNull();
    expect(qr).toContain("José Ñúñez Pérez Güiraldes");
    expect(qr).toContain("AutoQrToken000000001");
    expect(qr!.split("\n").at(-1)).toBe(`${server.baseUrl}/verify/AutoQrToken000000001?org=${ORG_DOMAIN}`);
    expect(pageText(pdf, 1)).toContain("Ñúñez");
  });

  it("encodes qr_text byte for byte, line breaks included, in a size-2 stamp", async () => {
    const qrText = "Línea 1\nLínea 2 ¿ñ? ¡sí!\nhttps://example.com/x?a=1&b=2";
    // built by hand: FormData would turn "\n" into "\r\n" before it reaches the service
    const response = await api.signPdfRaw({ ...signer, page: 2, position_x: 40, position_y: 40, qr_type: "text", qr_text: qrText, stamp_size: 2 }, { pdf: contract, image: portrait });
    const pdf = await signedPdfOf(response);
    expectValid(pdf, 1);
    expect(decodeQrOnPage(pdf, 2)).toBe(qrText);
  });

  it("appends a new last page for page 0", async () => {
    const pdf = await signedPdfOf(await api.signPdf({ ...signer, page: 0, sign_type: "otp", email: "jose@example.pe" }, { pdf: contract, image: portrait }));
    expect(pageCount(pdf)).toBe(pageCount(contract) + 1);
    expect(pageText(pdf, pageCount(pdf))).toContain("jose@example.pe");
    expectValid(pdf, 1);
  });

  it("answers a binary PDF with a .pdf file name when binary_resp=1", async () => {
    const response = await api.signPdf({ binary_resp: 1 }, { pdf: contract });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toMatch(/filename="[A-Za-z0-9]{20}\.pdf"/);
    expect(response.headers.get("x-pades-level")).toBe("B-LT");
    expectValid(new Uint8Array(await response.arrayBuffer()), 1);
  });

  it("keeps every signature valid when the output is signed again (3 signers)", async () => {
    let pdf: Uint8Array = contract;
    for (let i = 0; i < 3; i++) {
      pdf = await signedPdfOf(await api.signPdf({ ...signer, page: 1, position_x: 40 + i * 10, position_y: 40 + i * 150 }, { pdf, image: portrait }));
      expect(qpdfCheck(pdf).ok).toBe(true);
    }
    expectValid(pdf, 3);
  });
});

describe("signPDF field rules and errors", () => {
  const cases: { name: string; fields: Record<string, string | number>; files?: { pdf?: Uint8Array; image?: Uint8Array }; status: number; message: RegExp }[] = [
    { name: "missing pdf_file", fields: {}, files: {}, status: 400, message: /pdf_file es obligatorio/ },
    { name: "page beyond the page count", fields: { ...signer, page: 99 }, status: 400, message: /^PDFError: Página 99 no encontrada$/ },
    { name: "page without image", fields: { ...signer, page: 1 }, files: { pdf: contract }, status: 400, message: /image es obligatorio/ },
    { name: "page without names", fields: { page: 1, person_id: "12345678", last_names: "X" }, status: 400, message: /names es obligatorio cuando se envía page/ },
    { name: "landscape image", fields: { ...signer, page: 1 }, files: { pdf: contract, image: fixture("images/landscape-910x600.jpg") }, status: 400, message: /vertical|portrait|cuadrad/i },
    { name: "corrupt image", fields: { ...signer, page: 1 }, files: { pdf: contract, image: fixture("images/corrupt-truncated.jpg") }, status: 400, message: /imagen|image/i },
    { name: "unknown sign_type", fields: { sign_type: "magic" }, status: 400, message: /sign_type debe ser agente, digital u otp/ },
    { name: "digital without PIN", fields: { sign_type: "digital", sign_username: "x", sign_password: "y" }, status: 400, message: /sign_pin es obligatorio/ },
    { name: "qr_type text without qr_text", fields: { qr_type: "text" }, status: 400, message: /qr_text es obligatorio/ },
    { name: "stamp_size 3", fields: { stamp_size: 3 }, status: 400, message: /stamp_size debe ser 1 o 2/ },
    { name: "tx_token with 19 characters", fields: { tx_token: "A".repeat(19) }, status: 400, message: /20 caracteres alfanuméricos/ },
    { name: "async not 0/1", fields: { async: 2 }, status: 400, message: /async debe ser 0 o 1/ },
    { name: "stamp outside the page", fields: { ...signer, page: 1, position_x: 590, position_y: 10 }, files: { pdf: contract, image: portrait }, status: 400, message: /sale de la página/ },
    { name: "encrypted PDF", fields: {}, files: { pdf: fixture("pdfs/encrypted/qpdf-aes256-user-password.pdf") }, status: 400, message: /cifrado/ },
    { name: "truncated PDF", fields: {}, files: { pdf: fixture("pdfs/hostile/gen-truncated-50pct.pdf") }, status: 400, message: /no es un PDF válido|dañado/ },
    { name: "not a PDF", fields: {}, files: { pdf: fixture("images/portrait-413x531.jpg") }, status: 400, message: /no es un PDF válido|dañado/ },
    { name: "certified DocMDP P=1", fields: {}, files: { pdf: fixture("pdfs/signed-by-others/jsignpdf-docmdp1-certified.pdf") }, status: 400, message: /certificado/ },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const response = await api.signPdf(c.fields, c.files ?? { pdf: contract, image: portrait });
      const body = await response.json();
      expect(response.status, JSON.stringify(body)).toBe(c.status);
      expect(body.success).toBe(false);
      expect(body.message).toMatch(c.message);
    });
  }

  it("rejects a reused tx_token with 409", async () => {
    const fields = { tx_token: "RepeatedToken0000001" };
    expect((await api.signPdf(fields, { pdf: contract })).status).toBe(200);
    const again = await api.signPdf(fields, { pdf: contract });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toMatch(/ya fue utilizado/);
  });

  it("lets exactly one of 20 parallel requests with one tx_token succeed", async () => {
    const responses = await Promise.all(Array.from({ length: 20 }, () => api.signPdf({ tx_token: "RaceToken00000000001" }, { pdf: contract })));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
  });

  it("never leaks internals on garbage multipart", async () => {
    const response = await fetch(`${server.baseUrl}/api/v2/signPDF`, {
      method: "POST",
      headers: { authorization: `Bearer ${api.token}`, "content-type": "multipart/form-data; boundary=zzz" },
      body: "--zzz\r\nContent-Disposition: form-data; name=\"pdf_file\"; filename=\"a.pdf\"\r\n\r\n%PDF-",
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.success).toBe(false);
    expect(JSON.stringify(body)).not.toMatch(/at .+\.(js|ts):\d+/);
  });
});

describe("async signing", () => {
  it("answers at once with doc_id and serves the PDF from getSignedPDF", async () => {
    const response = await api.signPdf({ ...signer, page: 1, async: 1, qr_type: "auto" }, { pdf: contract, image: portrait });
    const body = await response.json();
    expect(body).toMatchObject({ success: true, message: "OK" });
    expect(body.tx_token).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(body.doc_id).toBeTruthy();
    let result: Response;
    for (;;) {
      result = await api.getSignedPdf(body.tx_token);
      if (result.status !== 202) break;
      expect((await result.json()).message).toBe("El documento aún se está procesando");
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(result.status).toBe(200);
    expectValid(await signedPdfOf(result), 1);
    const byDocId = await api.getSignedPdf(body.doc_id, true);
    expect(byDocId.headers.get("content-type")).toBe("application/pdf");
  });

  it("answers 404 for an unknown tx_token", async () => {
    const response = await api.getSignedPdf("NoSuchToken000000000");
    expect(response.status).toBe(404);
    expect((await response.json()).success).toBe(false);
  });
});

describe("tokens", () => {
  it("accepts v3 JWTs and refuses a superseded token", async () => {
    const v3 = new StampApiClient(server.baseUrl);
    const first = await v3.login("v3");
    const signedV3 = await v3.signPdf({}, { pdf: contract }, "v3");
    expect(signedV3.status).toBe(200);
    expect((await signedV3.json()).pades_level).toBe("B-LT");
    await v3.login("v3");
    const stale = new StampApiClient(server.baseUrl, first);
    const refused = await stale.signPdf({}, { pdf: contract }, "v3");
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ success: false });
    expect((await v3.signPdf({}, { pdf: contract }, "v3")).status).toBe(200);
  });

  it("refuses a missing token", async () => {
    const anonymous = new StampApiClient(server.baseUrl, "");
    expect((await anonymous.signPdf({}, { pdf: contract })).status).toBe(401);
  });
});

describe("upload limit", () => {
  it("answers 413 for a file over MAX_UPLOAD_MB", async () => {
    const small = await startTestServer({ env: { MAX_UPLOAD_MB: "1" } });
    try {
      const client = new StampApiClient(small.baseUrl);
      await client.login();
      const big = new Uint8Array(2 * 1024 * 1024).fill(32);
      big.set(contract);
      const response = await client.signPdf({}, { pdf: big });
      expect(response.status).toBe(413);
      expect((await response.json()).message).toMatch(/supera el límite de 1 MB/);
      // the refused body may still be in flight on that socket, so ask on a fresh connection
      expect(small.process.exitCode).toBeNull();
      expect(await healthOnFreshConnection(small.baseUrl)).toBe(200);
    } finally {
      await small.stop();
    }
  });
});

describe("verification page", () => {
  it("shows the signer and the SHA-256 of the signed file", async () => {
    const response = await api.signPdf({ ...signer, page: 1, tx_token: "VerifyPageToken00001" }, { pdf: contract, image: portrait });
    const pdf = await signedPdfOf(response);
    const html = await (await fetch(`${server.baseUrl}/verify/VerifyPageToken00001?org=${ORG_DOMAIN}`)).text();
    const { createHash } = await import("node:crypto");
    expect(html).toContain(createHash("sha256").update(pdf).digest("hex"));
    expect(html).toContain("José Ñúñez");
    const missing = await (await fetch(`${server.baseUrl}/verify/Nope`)).text();
    expect(missing).toContain("No existe una firma");
  });
});
