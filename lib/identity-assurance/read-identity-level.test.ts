import { describe, expect, it } from "vitest";
import { createPkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { makeTempDir, openssl, toPem, writeFiles } from "@/lib/pki/testing/openssl-cli";
import { issueSignerCertificate } from "@/lib/pki/issue-certificate";
import { identityLevels, identityLevelPolicyOids } from "./identity-level";
import { policyOidsOf, readIdentityLevel } from "./read-identity-level";

describe("the identity level in the signer certificate", () => {
  it("each level's certificatePolicies OID is read back as that level; none without the extension", async () => {
    const pki = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "http://localhost/crl" });
    const person = { givenNames: "Ana", lastNames: "Soto", nationality: "PER", idType: "DNI" as const, idNumber: "45871236", validityMinutes: 10, crlBaseUrl: "http://localhost/crl" };
    for (const level of identityLevels) {
      const certificate = await issueSignerCertificate(pki.issuing, { ...person, policyOids: [identityLevelPolicyOids[level]] });
      expect(readIdentityLevel(certificate.certificateDer)).toBe(level);
      if (level === "document-reviewed") {
        // an independent reader (openssl) sees the same policy OID
        const files = writeFiles(makeTempDir("identity-level"), { "signer.pem": toPem(certificate.certificateDer) });
        expect(openssl(["x509", "-in", files["signer.pem"], "-noout", "-text"])).toContain(`Policy: ${identityLevelPolicyOids[level]}`);
      }
    }
    expect(readIdentityLevel((await issueSignerCertificate(pki.issuing, person)).certificateDer)).toBeUndefined();
    // another issuer's policy is not one of our levels
    expect(readIdentityLevel((await issueSignerCertificate(pki.issuing, { ...person, policyOids: ["1.3.6.1.4.1.99999.1"] })).certificateDer)).toBeUndefined();
    await expect(issueSignerCertificate(pki.issuing, { ...person, policyOids: ["not an oid"] })).rejects.toThrow(/policyOids/);
  }, 60_000);
});

describe("policyOidsOf (DER CertificatePolicies)", () => {
  it("decodes a 128-bit arc exactly, and refuses truncated input", () => {
    // SEQUENCE { SEQUENCE { OID 2.25.<uuid>.1.1 } }, as openssl encodes it
    const der = Buffer.from("30193017061569d3bacaddf9928aae99b196ee858def91bd580101", "hex");
    expect(policyOidsOf(der)).toEqual(["2.25.55467146612298050323247193684401479384.1.1"]);
    expect(() => policyOidsOf(der.subarray(0, 10))).toThrow();
  });
});
