import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPkiHierarchy, type PkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { makeTempDir, openssl, toPem, writeFiles } from "@/lib/pki/testing/openssl-cli";

const crlBaseUrl = "https://crl.example.test/pki";

describe("createPkiHierarchy", () => {
  let dir: string;
  let quality: PkiHierarchy;
  let files: Record<"root.pem" | "issuing.pem" | "tsa.pem", string>;

  beforeAll(async () => {
    dir = makeTempDir("pki-hierarchy");
    quality = await createPkiHierarchy({ environment: "quality", crlBaseUrl });
    files = writeFiles(dir, {
      "root.pem": toPem(quality.root.certificateDer),
      "issuing.pem": toPem(quality.issuing.certificateDer),
      "tsa.pem": toPem(quality.tsa.certificateDer),
    });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("builds a chain that openssl verifies, with the TSA fit for time stamping", () => {
    expect(openssl(["verify", "-CAfile", files["root.pem"], files["issuing.pem"]])).toContain(": OK");
    const tsa = openssl(["verify", "-CAfile", files["root.pem"], "-untrusted", files["issuing.pem"], "-purpose", "timestampsign", files["tsa.pem"]]);
    expect(tsa).toContain(": OK");
  });

  it("gives the root CA the CA extensions and no CRL pointer", () => {
    const text = openssl(["x509", "-in", files["root.pem"], "-noout", "-text"]);
    expect(text).toContain("Issuer: C = PE, O = FirmaViva, CN = FirmaViva Root CA (Calidad)");
    expect(text).toMatch(/Basic Constraints: critical\s+CA:TRUE\n/);
    expect(text).toMatch(/Key Usage: critical\s+Certificate Sign, CRL Sign/);
    expect(text).toContain("Subject Key Identifier");
    expect(text).not.toContain("CRL Distribution Points");
    expect(text).toContain("ecdsa-with-SHA256");
    expect(text).toContain("NIST CURVE: P-256");
  });

  it("limits the issuing CA to pathLen 0 and points it at the root CRL", () => {
    const text = openssl(["x509", "-in", files["issuing.pem"], "-noout", "-text"]);
    expect(text).toMatch(/Basic Constraints: critical\s+CA:TRUE, pathlen:0/);
    expect(text).toContain(`URI:${crlBaseUrl}/firmaviva-root-ca-calidad.crl`);
    expect(text).toContain("Authority Key Identifier");
  });

  it("gives the TSA a critical timeStamping-only EKU and the issuing CRL", () => {
    const text = openssl(["x509", "-in", files["tsa.pem"], "-noout", "-text"]);
    expect(text).toMatch(/Extended Key Usage: critical\s+Time Stamping\n/);
    expect(text).toMatch(/Key Usage: critical\s+Digital Signature, Non Repudiation/);
    expect(text).toMatch(/Basic Constraints: critical\s+CA:FALSE/);
    expect(text).toContain(`URI:${crlBaseUrl}/firmaviva-issuing-ca-calidad.crl`);
    expect(text).toContain("Subject: C = PE, O = FirmaViva, CN = FirmaViva TSA (Calidad)");
  });

  it("names production CAs without the quality marker", async () => {
    const production = await createPkiHierarchy({ environment: "production", crlBaseUrl });
    const text = openssl(["x509", "-noout", "-subject", "-issuer"], { input: Buffer.from(toPem(production.issuing.certificateDer)) });
    expect(text).toContain("subject=C = PE, O = FirmaViva, CN = FirmaViva Issuing CA\n");
    expect(text).toContain("issuer=C = PE, O = FirmaViva, CN = FirmaViva Root CA\n");
  });

  it("returns PKCS#8 keys that belong to the certificates", () => {
    const key = toPem(quality.tsa.pkcs8, "PRIVATE KEY");
    const fromKey = openssl(["pkey", "-pubout"], { input: Buffer.from(key) });
    const fromCertificate = openssl(["x509", "-noout", "-pubkey", "-in", files["tsa.pem"]]);
    expect(fromKey).toBe(fromCertificate);
  });
});
