import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCrl } from "@/lib/pki/build-crl";
import { createPkiHierarchy, type PkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { issueSignerCertificate } from "@/lib/pki/issue-certificate";
import type { IssuedCertificate } from "@/lib/pki/issued-certificate";
import { makeTempDir, openssl, runOpenssl, toPem, writeFiles } from "@/lib/pki/testing/openssl-cli";
import { readX509Certificate } from "@/lib/pki/x509-provider";

const crlBaseUrl = "https://crl.example.test";
const hour = 3600 * 1000;

describe("buildCrl", () => {
  let dir: string;
  let pki: PkiHierarchy;
  let revoked: IssuedCertificate;
  let valid: IssuedCertificate;
  let files: Record<string, string>;

  beforeAll(async () => {
    dir = makeTempDir("pki-crl");
    pki = await createPkiHierarchy({ environment: "quality", crlBaseUrl });
    const person = { givenNames: "Ana", lastNames: "Soto", nationality: "PER", idType: "DNI", idNumber: "87654321", validityMinutes: 30, crlBaseUrl } as const;
    revoked = await issueSignerCertificate(pki.issuing, person);
    valid = await issueSignerCertificate(pki.issuing, person);
    const now = Date.now();
    const issuingCrl = await buildCrl(pki.issuing, {
      revoked: [{ serialNumberHex: readX509Certificate(revoked.certificateDer).serialNumber, revokedAt: new Date(now - hour) }],
      crlNumber: 7n,
      thisUpdate: new Date(now - hour),
      nextUpdate: new Date(now + 24 * hour),
    });
    const rootCrl = await buildCrl(pki.root, { revoked: [], crlNumber: 1n, thisUpdate: new Date(now - hour), nextUpdate: new Date(now + 24 * hour) });
    files = writeFiles(dir, {
      "root.pem": toPem(pki.root.certificateDer),
      "issuing.pem": toPem(pki.issuing.certificateDer),
      "issuing.crl": issuingCrl,
      "root.crl": rootCrl,
      "crls.pem": toPem(issuingCrl, "X509 CRL") + toPem(rootCrl, "X509 CRL"),
      "revoked.pem": toPem(revoked.certificateDer),
      "valid.pem": toPem(valid.certificateDer),
    });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("is a v2 CRL whose signature openssl verifies", () => {
    const output = openssl(["crl", "-inform", "DER", "-in", files["issuing.crl"]!, "-CAfile", files["issuing.pem"]!, "-noout", "-text"]);
    expect(output).toContain("verify OK");
    expect(output).toContain("Version 2 (0x1)");
    expect(output).toMatch(/X509v3 CRL Number:\s+7/);
    expect(output).toContain("X509v3 Authority Key Identifier");
    expect(output).toContain(readX509Certificate(revoked.certificateDer).serialNumber.toUpperCase());
    expect(output).toContain("Issuer: C = PE, O = FirmaViva, CN = FirmaViva Issuing CA (Calidad)");
  });

  it("verifies the root CRL with the root certificate", () => {
    expect(openssl(["crl", "-inform", "DER", "-in", files["root.crl"]!, "-CAfile", files["root.pem"]!, "-noout"])).toContain("verify OK");
  });

  it("makes openssl verify -crl_check reject the revoked certificate and accept the other", () => {
    const args = ["verify", "-crl_check_all", "-CRLfile", files["crls.pem"]!, "-CAfile", files["root.pem"]!, "-untrusted", files["issuing.pem"]!, "-purpose", "any"];
    expect(openssl([...args, files["valid.pem"]!])).toContain(": OK");
    const result = runOpenssl([...args, files["revoked.pem"]!]);
    expect(result.status).not.toBe(0);
    expect(result.stdout + result.stderr).toContain("certificate revoked");
  });

  it("rejects inconsistent input", async () => {
    const now = new Date();
    await expect(buildCrl(pki.issuing, { revoked: [], crlNumber: 1n, thisUpdate: now, nextUpdate: now })).rejects.toThrow();
    await expect(
      buildCrl(pki.issuing, { revoked: [{ serialNumberHex: "zz", revokedAt: now }], crlNumber: 1n, thisUpdate: now, nextUpdate: new Date(now.getTime() + hour) }),
    ).rejects.toThrow(/Invalid serial/);
  });
});
