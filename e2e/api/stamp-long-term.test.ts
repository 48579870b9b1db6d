import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import { openPlatformToken } from "@/lib/certificates/platform-token";
import { dssCrlTimings, itextCheckAt, pdfsigAt, validatePdfAt } from "@/lib/certificates/testing/long-term-checks";
import { storeStaleCrls } from "@/lib/certificates/testing/store-stale-crls";
import { loadConfig } from "@/lib/config/load-config";
import { startTestServer, type TestServer } from "../fixtures/start-test-server";
import { StampApiClient, fixture } from "../fixtures/stamp-api-client";

/**
 * The validator battery of lib/certificates/long-term-outputs.test.ts (openssl on the DSS, pdfsig,
 * validate-pdf, iText 5; now, a day and a year later under faketime) on stamp outputs as an
 * integrator receives them from the real server: v2 signPDF, v3 signPDF and async getSignedPDF.
 */

const contract = fixture("pdfs/valid/libreoffice74-contrato-a4.pdf");
const portrait = fixture("images/portrait-413x531.jpg");
const signer = { names: "José Ñúñez", last_names: "Pérez Güiraldes", person_id: "12345678", nationality: "PER", person_id_type: "DNI" };
const STALE_MS = 10 * 60 * 1000;
const CLOCKS = [undefined, "+1d", "+365d"] as const;

let server: TestServer;
let dir: string;
let caPemFile: string;
const outputs = new Map<string, string>();
const table: string[] = [];

async function levelAndPdf(response: Response): Promise<Uint8Array> {
  const body = await response.json();
  expect(body, JSON.stringify(body).slice(0, 300)).toMatchObject({ success: true, message: "OK", pades_level: "B-LT" });
  return new Uint8Array(Buffer.from(body.signed_pdf, "base64"));
}

/** A server "up for a while": started once, then restarted on stored CRLs issued ten minutes ago that are still in their reuse window. */
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-stamp-long-term-"));
  const first = await startTestServer();
  await first.stop();
  const { SECRET_KEY, PKCS11_MODULE, PKCS11_TOKEN_LABEL, PKCS11_PIN } = process.env;
  const config = loadConfig({ DATA_DIR: first.dataDir, PUBLIC_URL: first.baseUrl, SECRET_KEY, PKCS11_MODULE, PKCS11_TOKEN_LABEL, PKCS11_PIN });
  // under TEST_KEY_STORE=softhsm the CA keys that sign these CRLs are in the token
  await openPlatformToken(config);
  const database = await openDatabase({ databaseUrl: first.databaseUrl, dataDir: first.dataDir });
  try {
    await storeStaleCrls(database.db, pkiSettingsOf(config), STALE_MS);
  } finally {
    await database.close();
  }
  server = await startTestServer({ dataDir: first.dataDir, env: first.databaseUrl ? { DATABASE_URL: first.databaseUrl } : {} });

  const v2 = new StampApiClient(server.baseUrl);
  await v2.login("v2");
  const v3 = new StampApiClient(server.baseUrl);
  await v3.login("v3");
  caPemFile = path.join(dir, "ca.pem");
  fs.writeFileSync(caPemFile, await v2.caPem());
  const save = (name: string, pdf: Uint8Array) => {
    const file = path.join(dir, `${outputs.size}.pdf`);
    fs.writeFileSync(file, pdf);
    outputs.set(name, file);
  };

  save("v2 signPDF, stamp with QR on page 1", await levelAndPdf(await v2.signPdf({ ...signer, page: 1, position_x: 300, position_y: 60, qr_type: "auto" }, { pdf: contract, image: portrait })));
  save("v3 signPDF, otp stamp on an appended page", await levelAndPdf(await v3.signPdf({ ...signer, page: 0, sign_type: "otp", email: "jose@example.pe" }, { pdf: contract, image: portrait }, "v3")));

  const accepted = await (await v2.signPdf({ ...signer, page: 1, async: 1 }, { pdf: contract, image: portrait })).json();
  expect(accepted).toMatchObject({ success: true, message: "OK" });
  const deadline = Date.now() + 120_000;
  let result = await v2.getSignedPdf(accepted.tx_token);
  while (result.status === 202 && Date.now() < deadline) {
    await result.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 250));
    result = await v2.getSignedPdf(accepted.tx_token);
  }
  expect(result.status).toBe(200);
  save("async signPDF, fetched with getSignedPDF", await levelAndPdf(result));
}, 600_000);

afterAll(async () => {
  await server?.stop();
  if (table.length) console.log(`output | validator | now | +1 day | +1 year\n${table.sort().join("\n")}`);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const kinds = ["v2 signPDF, stamp with QR on page 1", "v3 signPDF, otp stamp on an appended page", "async signPDF, fetched with getSignedPDF"];

describe("stamp outputs from the real server pass every validator now, a day and a year later", () => {
  it.each(kinds)("%s: every DSS CRL verifies with openssl and was issued after the notBefore of each certificate it covers", async (name) => {
    const timings = await dssCrlTimings(new Uint8Array(fs.readFileSync(outputs.get(name)!)), dir);
    expect(timings.length).toBeGreaterThanOrEqual(2);
    for (const timing of timings) {
      expect(timing.verified, `${timing.crl} of ${timing.issuer}`).toBe(true);
      for (const certificate of timing.covers) expect(timing.thisUpdate.getTime(), `${timing.issuer} CRL vs ${certificate.subject}`).toBeGreaterThanOrEqual(certificate.notBefore.getTime());
    }
    // the agent certificate, the issuing CA and the TSA certificate are each covered by a CRL of their issuer
    expect(new Set(timings.flatMap((t) => t.covers.map((c) => c.subject))).size).toBeGreaterThanOrEqual(3);
    table.push(`${name} | openssl (DSS CRLs vs notBefore) | PASS | n/a (times in the file) | n/a`);
  });

  it.each(kinds)("%s: validate-pdf, pdfsig and iText 5 accept it now, a day later and a year later (faketime)", async (name) => {
    const file = outputs.get(name)!;
    const row = { "validate-pdf": [] as string[], pdfsig: [] as string[], "iText 5": [] as string[] };
    for (const clock of CLOCKS) {
      const at = clock ?? "now";
      const validated = await validatePdfAt(file, caPemFile, clock);
      expect(validated.output, `validate-pdf at ${at}`).toMatch(/validate-pdf: PASS \(1 signature\)/);
      row["validate-pdf"].push("PASS");
      const pdfsig = await pdfsigAt(file, caPemFile, dir, clock);
      expect(pdfsig.signatures, `pdfsig at ${at}\n${pdfsig.output}`).toEqual(["Signature is Valid."]);
      expect(pdfsig.certificates, `pdfsig at ${at}\n${pdfsig.output}`).toEqual(["Certificate is Trusted."]);
      row.pdfsig.push("Valid, Trusted");
      const itext = await itextCheckAt(file, [caPemFile], clock);
      expect(itext.output, `iText at ${at}`).toMatch(/itext: PASS/);
      row["iText 5"].push("PASS");
    }
    for (const [validator, results] of Object.entries(row)) table.push(`${name} | ${validator} | ${results.join(" | ")}`);
  }, 600_000);
});
