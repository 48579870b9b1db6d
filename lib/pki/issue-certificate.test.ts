import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPkiError } from "@/lib/pki/errors";
import { createPkiHierarchy, type PkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import {
  issueAgentCertificate,
  issueHolderCertificate,
  issueSignerCertificate,
  type PersonIdentity,
} from "@/lib/pki/issue-certificate";
import { makeTempDir, openssl, toPem, writeFiles } from "@/lib/pki/testing/openssl-cli";
import { readX509Certificate } from "@/lib/pki/x509-provider";

const crlBaseUrl = "https://crl.example.test";
const person: PersonIdentity = { givenNames: "María José", lastNames: "Pérez Ñuñez", nationality: "PER", idType: "DNI", idNumber: "12345678" };

describe("issue certificates", () => {
  let dir: string;
  let pki: PkiHierarchy;
  let chain: Record<"root.pem" | "issuing.pem", string>;

  beforeAll(async () => {
    dir = makeTempDir("pki-issue");
    pki = await createPkiHierarchy({ environment: "quality", crlBaseUrl });
    chain = writeFiles(dir, { "root.pem": toPem(pki.root.certificateDer), "issuing.pem": toPem(pki.issuing.certificateDer) });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function verify(certificateDer: Uint8Array, name: string): string {
    const file = writeFiles(dir, { [name]: toPem(certificateDer) })[name]!;
    return openssl(["verify", "-CAfile", chain["root.pem"], "-untrusted", chain["issuing.pem"], "-purpose", "any", file]);
  }

  function text(certificateDer: Uint8Array): string {
    return openssl(["x509", "-noout", "-text", "-nameopt", "RFC2253,-esc_msb"], { input: Buffer.from(toPem(certificateDer)) });
  }

  it("issues a short-lived signer certificate with the ETSI-style subject", async () => {
    const now = new Date("2030-01-01T12:00:00Z");
    const signer = await issueSignerCertificate(pki.issuing, { ...person, validityMinutes: 15, crlBaseUrl, now });
    const certificate = readX509Certificate(signer.certificateDer);
    expect(certificate.notBefore.toISOString()).toBe("2030-01-01T11:59:00.000Z");
    expect(certificate.notAfter.toISOString()).toBe("2030-01-01T12:15:00.000Z");
    const output = text(signer.certificateDer);
    expect(output).toContain("Subject: CN=María José Pérez Ñuñez,serialNumber=IDCPER-12345678,GN=María José,SN=Pérez Ñuñez,C=PE");
    expect(output).toMatch(/Key Usage: critical\s+Digital Signature, Non Repudiation/);
    expect(output).toContain(`URI:${crlBaseUrl}/firmaviva-issuing-ca-calidad.crl`);
    expect(output).toContain("Authority Key Identifier");
    expect(output).toContain("Subject Key Identifier");
  });

  it("chains a current signer certificate to the root", async () => {
    const signer = await issueSignerCertificate(pki.issuing, { ...person, validityMinutes: 10, crlBaseUrl });
    expect(verify(signer.certificateDer, "signer.pem")).toContain(": OK");
  });

  it.each([
    { identity: { nationality: "PER", idType: "PAS", idNumber: "1234567890" }, serial: "PASPER-1234567890", country: "C=PE" },
    { identity: { nationality: "CHL", idType: "DNI", idNumber: "12345678-K" }, serial: "IDCCHL-12345678-K", country: "C=CL" },
    { identity: { nationality: "PER", idType: "CE", idNumber: "001234567890" }, serial: "IDCPER-001234567890", country: "C=PE" },
    { identity: { nationality: "ARG", idType: "PAS", idNumber: "AB123456" }, serial: "PASARG-AB123456", country: null },
  ] as const)("writes serialNumber $serial", async ({ identity, serial, country }) => {
    const signer = await issueSignerCertificate(pki.issuing, { ...person, ...identity, validityMinutes: 5, crlBaseUrl });
    const subject = text(signer.certificateDer).match(/Subject: (.*)/)![1]!;
    expect(subject).toContain(`serialNumber=${serial}`);
    if (country) expect(subject).toMatch(new RegExp(`,${country}$`));
    else expect(subject).not.toContain("C=");
  });

  it("gives every certificate a fresh key", async () => {
    const a = await issueSignerCertificate(pki.issuing, { ...person, validityMinutes: 5, crlBaseUrl });
    const b = await issueSignerCertificate(pki.issuing, { ...person, validityMinutes: 5, crlBaseUrl });
    expect(Buffer.from(a.pkcs8).equals(Buffer.from(b.pkcs8))).toBe(false);
    expect(readX509Certificate(a.certificateDer).serialNumber).not.toBe(readX509Certificate(b.certificateDer).serialNumber);
  });

  it("issues a holder certificate valid for days, naming the organization that vouched (O)", async () => {
    const now = new Date(Math.floor(Date.now() / 1000) * 1000); // certificates keep whole seconds
    const holder = await issueHolderCertificate(pki.issuing, { ...person, organization: "Notaría Díaz, S.A.C.", validityDays: 365, crlBaseUrl, now });
    const certificate = readX509Certificate(holder.certificateDer);
    expect(certificate.notAfter.getTime() - now.getTime()).toBe(365 * 24 * 3600 * 1000);
    expect(verify(holder.certificateDer, "holder.pem")).toContain(": OK");
    expect(certificate.subjectName.getField("O")).toEqual(["Notaría Díaz, S.A.C."]);
    // a signer certificate of a process is not a holder's: no organization asserted it
    const signer = await issueSignerCertificate(pki.issuing, { ...person, validityMinutes: 5, crlBaseUrl });
    expect(readX509Certificate(signer.certificateDer).subjectName.getField("O")).toEqual([]);
  });

  it.each([" ", "x".repeat(65)])("refuses a holder certificate whose organization is %j", async (organization) => {
    await expect(issueHolderCertificate(pki.issuing, { ...person, organization, validityDays: 5, crlBaseUrl })).rejects.toSatisfy((error) => isPkiError(error, "INVALID_INPUT"));
  });

  it("issues an agent certificate for an organization", async () => {
    const agent = await issueAgentCertificate(pki.issuing, { organizationName: "ACME, S.A.C.", domain: "acme.example", crlBaseUrl });
    const output = text(agent.certificateDer);
    expect(output).toContain("Subject: CN=ACME\\, S.A.C.,O=ACME\\, S.A.C.");
    expect(output).toContain("DNS:acme.example");
    expect(output).toMatch(/Extended Key Usage:\s+E-mail Protection, 1.3.6.1.4.1.311.10.3.12\n/);
    expect(verify(agent.certificateDer, "agent.pem")).toContain(": OK");
  });

  it("never outlives the issuing CA", async () => {
    const holder = await issueHolderCertificate(pki.issuing, { ...person, organization: "ACME", validityDays: 100 * 365, crlBaseUrl });
    expect(readX509Certificate(holder.certificateDer).notAfter.getTime()).toBe(readX509Certificate(pki.issuing.certificateDer).notAfter.getTime());
  });

  it.each([
    { name: "empty given names", change: { givenNames: " " } },
    { name: "2-letter nationality", change: { nationality: "PE" } },
    { name: "id with spaces", change: { idNumber: "123 456" } },
    { name: "zero minutes", change: { validityMinutes: 0 } },
    { name: "fractional minutes", change: { validityMinutes: 1.5 } },
  ])("rejects $name", async ({ change }) => {
    const attempt = issueSignerCertificate(pki.issuing, { ...person, validityMinutes: 5, crlBaseUrl, ...change });
    await expect(attempt).rejects.toSatisfy((error) => isPkiError(error, "INVALID_INPUT"));
  });
});
