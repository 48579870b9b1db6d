import { createHash, createPublicKey, verify, X509Certificate } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCrl } from "@/lib/pki/build-crl";
import { createPkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { issueAgentCertificate, issueSignerCertificate } from "@/lib/pki/issue-certificate";
import { openPkcs11Token, TokenSetupError, type Pkcs11Token } from "@/lib/pki/pkcs11-token";
import { signCadesDetached } from "@/lib/pki/sign-cms-detached";
import { registerTokenSigning } from "@/lib/pki/signing-key";
import { createSoftHsmToken, softHsmInstalled, SOFTHSM_MODULE, type SoftHsmToken } from "@/lib/pki/testing/softhsm-token";
import { verifyCmsSignature } from "@/lib/pki/verify-cms-signature";
import { readX509Certificate, x509 } from "@/lib/pki/x509-provider";

// the whole PKCS#11 path against a real token library; scripts/debian-packages.txt lists softhsm2
describe.skipIf(!softHsmInstalled())("PKCS#11 token keys (SoftHSM2)", () => {
  let softHsm: SoftHsmToken;
  let token: Pkcs11Token;
  const settings = () => ({ modulePath: SOFTHSM_MODULE, tokenLabel: softHsm.env.PKCS11_TOKEN_LABEL, pin: softHsm.env.PKCS11_PIN });

  beforeAll(() => {
    softHsm = createSoftHsmToken();
    // SoftHSM reads its configuration once per process, at C_Initialize
    process.env.SOFTHSM2_CONF = softHsm.env.SOFTHSM2_CONF;
  });
  afterAll(() => {
    registerTokenSigning(undefined);
    softHsm?.remove();
  });

  // before any successful login: PKCS#11 login state belongs to the whole process
  it.each([
    ["PKCS11_MODULE", () => ({ ...settings(), modulePath: "/nonexistent/libpkcs11.so" })],
    ["PKCS11_TOKEN_LABEL", () => ({ ...settings(), tokenLabel: "no-such-token" })],
    ["PKCS11_PIN", () => ({ ...settings(), pin: "0000-0000" })],
  ])("refuses a bad %s with a message naming it", async (setting, make) => {
    const error = await openPkcs11Token(make()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TokenSetupError);
    expect((error as TokenSetupError).setting).toBe(setting);
    expect((error as Error).message).toMatch(new RegExp(`^${setting}: `));
  });

  it("opens the token with the right PIN and signs with a generated, findable key", async () => {
    token = await openPkcs11Token(settings());
    registerTokenSigning((label, data) => token.sign(label, data));
    const key = token.generateKey("unit-key-1");
    expect(token.findKey("unit-key-1")?.publicKeySpkiDer).toEqual(key.publicKeySpkiDer);
    expect(token.findKey("unit-key-absent")).toBeNull();
    const publicKey = createPublicKey({ key: Buffer.from(key.publicKeySpkiDer), format: "der", type: "spki" });
    const data = new TextEncoder().encode("firmado en el token");
    const signature = token.sign("unit-key-1", data);
    expect(verify("sha256", data, { key: publicKey, dsaEncoding: "der" }, signature)).toBe(true);
    // counter-test: the same signature over other data, or another key's, does not verify
    expect(verify("sha256", new TextEncoder().encode("otro"), { key: publicKey, dsaEncoding: "der" }, signature)).toBe(false);
    const other = createPublicKey({ key: Buffer.from(token.generateKey("unit-key-2").publicKeySpkiDer), format: "der", type: "spki" });
    expect(verify("sha256", data, { key: other, dsaEncoding: "der" }, signature)).toBe(false);
    expect(() => token.sign("unit-key-absent", data)).toThrow(/PKCS11_TOKEN_LABEL/);
  });

  it("builds a CA hierarchy, an agent certificate, a CRL and a CMS with keys that stay in the token", async () => {
    let n = 0;
    const maker = async () => token.generateKey(`unit-ca-${++n}`);
    const pki = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "http://localhost/api/pki/crl" }, maker);
    expect(pki.root.privateKey).toMatchObject({ token: "pkcs11", label: "unit-ca-1" });
    expect("pkcs8" in pki.root).toBe(false);
    const root = new X509Certificate(pki.root.certificateDer);
    const issuing = new X509Certificate(pki.issuing.certificateDer);
    const tsa = new X509Certificate(pki.tsa.certificateDer);
    expect(root.verify(root.publicKey)).toBe(true);
    expect(issuing.verify(root.publicKey)).toBe(true);
    expect(tsa.verify(issuing.publicKey)).toBe(true);
    expect(tsa.verify(root.publicKey)).toBe(false);

    // a one-use signer key in memory, certified by the issuing CA in the token
    const person = await issueSignerCertificate(pki.issuing, { givenNames: "Ana", lastNames: "Rojas", nationality: "PER", idType: "DNI", idNumber: "45493496", validityMinutes: 10, crlBaseUrl: "http://localhost/api/pki/crl" });
    expect(new X509Certificate(person.certificateDer).verify(issuing.publicKey)).toBe(true);
    expect(new X509Certificate(person.certificateDer).verify(root.publicKey)).toBe(false);

    const agent = await issueAgentCertificate(pki.issuing, { organizationName: "Token SAC", domain: "token.pe", crlBaseUrl: "http://localhost/api/pki/crl" }, maker);
    expect(new X509Certificate(agent.certificateDer).verify(issuing.publicKey)).toBe(true);

    const crl = new x509.X509Crl(
      new Uint8Array(await buildCrl(pki.issuing, { revoked: [{ serialNumberHex: "0abc", revokedAt: new Date() }], crlNumber: 7n, thisUpdate: new Date(), nextUpdate: new Date(Date.now() + 86_400_000) })),
    );
    expect(await crl.verify({ publicKey: await readX509Certificate(pki.issuing.certificateDer).publicKey.export() })).toBe(true);
    expect(await crl.verify({ publicKey: await readX509Certificate(pki.root.certificateDer).publicKey.export() })).toBe(false);

    const content = new TextEncoder().encode("contenido firmado");
    const cms = await signCadesDetached({
      digest: new Uint8Array(createHash("sha256").update(content).digest()),
      signer: { certificateDer: agent.certificateDer, privateKey: agent.privateKey, chainDer: [pki.issuing.certificateDer] },
    });
    expect(verifyCmsSignature(cms, content).signerCertificateDer).toEqual(agent.certificateDer);
    expect(() => verifyCmsSignature(cms, new TextEncoder().encode("contenido alterado"))).toThrow();
  });
});
