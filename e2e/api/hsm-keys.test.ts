import { isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { pkiCertificates } from "@/db/schema";
import { openPkcs11Token } from "@/lib/pki/pkcs11-token";
import { createSoftHsmToken, softHsmInstalled, SOFTHSM_MODULE, type SoftHsmToken } from "@/lib/pki/testing/softhsm-token";
import { opensslTsQuery, opensslTsVerify, qpdfCheck, validatePdf } from "../fixtures/independent-validators";
import { startTestServer, waitForExit, type TestServer } from "../fixtures/start-test-server";
import { StampApiClient, fixture } from "../fixtures/stamp-api-client";

/**
 * PKCS11_MODULE: the CA, TSA and agent keys are generated in the token and the database keeps only
 * their labels; a bad setting stops the start naming it; keys made before the token keep working.
 * (scripts/test.mjs also runs the signing API files against SoftHSM: TEST_KEY_STORE=softhsm.)
 */
const contract = fixture("pdfs/valid/libreoffice74-contrato-a4.pdf");
const tokens: SoftHsmToken[] = [];
const newToken = () => {
  const token = createSoftHsmToken();
  tokens.push(token);
  return token;
};
afterAll(() => tokens.forEach((token) => token.remove()));

async function keyRows(server: TestServer) {
  const database = await openDatabase({ databaseUrl: server.databaseUrl, dataDir: server.dataDir });
  try {
    return await database.db
      .select({ purpose: pkiCertificates.purpose, encrypted: pkiCertificates.privateKeyEncrypted, label: pkiCertificates.privateKeyLabel })
      .from(pkiCertificates)
      .where(isNull(pkiCertificates.revokedAt));
  } finally {
    await database.close();
  }
}

async function signAndCheck(server: TestServer) {
  const api = new StampApiClient(server.baseUrl);
  await api.login("v2");
  const caPem = await api.caPem();
  const response = await api.signPdf({}, { pdf: contract });
  const body = await response.json();
  expect(body, JSON.stringify(body).slice(0, 300)).toMatchObject({ success: true, message: "OK" });
  const pdf = new Uint8Array(Buffer.from(body.signed_pdf, "base64"));
  expect(qpdfCheck(pdf).ok).toBe(true);
  const validation = validatePdf(pdf, caPem);
  expect(validation.pass, validation.output).toBe(true);
  const query = opensslTsQuery(contract);
  const stamped = await (await api.postForm("/api/v2/signTimeStamp", {}, { tsq_file: query })).json();
  expect(opensslTsVerify(new Uint8Array(Buffer.from(stamped.tsr_file, "base64")), query, caPem)).toContain("Verification: OK");
}

describe.skipIf(!softHsmInstalled())("signing keys in a PKCS#11 token (SoftHSM2)", () => {
  let token: SoftHsmToken;
  let server: TestServer;
  beforeAll(async () => {
    token = newToken();
    server = await startTestServer({ env: token.env });
  });
  afterAll(async () => server?.stop());

  it("generates the root, issuing, TSA and agent keys in the token; the database keeps only their labels", async () => {
    await signAndCheck(server);
    await server.stop();
    const rows = await keyRows(server);
    const platform = rows.filter((row) => ["root", "issuing", "tsa", "agent"].includes(row.purpose));
    expect(platform.map((row) => row.purpose).sort()).toEqual(["agent", "issuing", "root", "tsa"]);
    for (const row of platform) {
      expect(row.encrypted, row.purpose).toBeNull();
      expect(row.label, row.purpose).toMatch(/^firmaviva-(ca-quality|agent)-[0-9a-f-]{36}$/);
    }
    // the labels name real keys of this token (checked from this process, with the server stopped)
    process.env.SOFTHSM2_CONF = token.env.SOFTHSM2_CONF;
    const opened = await openPkcs11Token({ modulePath: SOFTHSM_MODULE, tokenLabel: token.env.PKCS11_TOKEN_LABEL, pin: token.env.PKCS11_PIN });
    for (const row of platform) expect(opened.findKey(row.label!), row.purpose).not.toBeNull();
    server = await startTestServer({ dataDir: server.dataDir, env: { ...token.env, ...(server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : {}) } });
    await signAndCheck(server);
  });

  it("stops the start, naming the setting, for a missing module, an unknown token, a wrong PIN or a token without the key", async () => {
    const other = newToken();
    const reuse: Record<string, string> = server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : {};
    await server.stop();
    const cases: { env: Record<string, string>; dataDir?: string; expected: RegExp }[] = [
      { env: { ...token.env, PKCS11_MODULE: "/nonexistent/libpkcs11.so" }, expected: /PKCS11_MODULE: cannot load the PKCS#11 library \/nonexistent\/libpkcs11\.so/ },
      { env: { ...token.env, PKCS11_TOKEN_LABEL: "no-such-token" }, expected: /PKCS11_TOKEN_LABEL: no token labelled "no-such-token"/ },
      { env: { ...token.env, PKCS11_PIN: "0000-0000" }, expected: /PKCS11_PIN: the token "firmaviva-test" refused the PIN/ },
      { env: { PKCS11_MODULE: SOFTHSM_MODULE, PKCS11_TOKEN_LABEL: "", PKCS11_PIN: "" }, expected: /PKCS11_TOKEN_LABEL: must be set together/ },
      // the same database on a token that never held its keys, and on no token at all
      { env: { ...other.env, ...reuse }, dataDir: server.dataDir, expected: /PKCS11_TOKEN_LABEL: the token "firmaviva-test" has no key labelled firmaviva-ca-quality-[0-9a-f-]+ \(the root key\)/ },
      { env: { ...reuse, PKCS11_MODULE: "", PKCS11_TOKEN_LABEL: "", PKCS11_PIN: "" }, dataDir: server.dataDir, expected: /PKCS11_MODULE: the root key is in a PKCS#11 token/ },
    ];
    for (const c of cases) {
      const failing = await startTestServer({ env: c.env, dataDir: c.dataDir, waitForHealth: false });
      const { code, output } = await waitForExit(failing);
      expect(code, output).not.toBe(0);
      expect(output).toMatch(c.expected);
      expect(output).toContain("Cannot start:");
      for (const pin of [token.env.PKCS11_PIN, "0000-0000"]) expect(output).not.toContain(pin);
      expect(output).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
    }
    // counter-test: the right settings on that database start and sign
    server = await startTestServer({ dataDir: server.dataDir, env: { ...token.env, ...reuse } });
    await signAndCheck(server);
  });
});

describe.skipIf(!softHsmInstalled())("keys made before the token (mixed mode)", () => {
  it("keeps signing with the wrapped database keys once PKCS11_MODULE is set", async () => {
    const plain = { PKCS11_MODULE: "", PKCS11_TOKEN_LABEL: "", PKCS11_PIN: "" };
    let server = await startTestServer({ env: plain });
    try {
      await signAndCheck(server);
      await server.stop();
      const byPurpose = (a: { purpose: string }, b: { purpose: string }) => a.purpose.localeCompare(b.purpose);
      const before = (await keyRows(server)).sort(byPurpose);
      expect(before.filter((row) => row.label !== null)).toEqual([]);
      const token = newToken();
      server = await startTestServer({ dataDir: server.dataDir, env: { ...token.env, ...(server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : {}) } });
      await signAndCheck(server);
      await server.stop();
      // the same rows, still wrapped: nothing was moved or re-created
      const after = (await keyRows(server)).sort(byPurpose);
      expect(after.map((row) => [row.purpose, row.label])).toEqual(before.map((row) => [row.purpose, null]));
    } finally {
      await server.stop();
    }
  });
});
