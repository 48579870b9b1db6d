import { beforeAll, describe, expect, it } from "vitest";
import { createPkiHierarchy, type PkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { readIssuerCertificate } from "@/lib/pki/x509-provider";

describe("readIssuerCertificate", () => {
  let pki: PkiHierarchy;
  beforeAll(async () => {
    pki = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "https://crl.example.test" });
  });

  it("parses one bytes object once, and never answers for other bytes with it", () => {
    const issuing = readIssuerCertificate(pki.issuing.certificateDer);
    expect(readIssuerCertificate(pki.issuing.certificateDer)).toBe(issuing);
    expect(readIssuerCertificate(pki.root.certificateDer).subject).not.toBe(issuing.subject);
    // equal bytes in another object are read on their own (the cache is keyed by the object)
    const copy = new Uint8Array(pki.issuing.certificateDer);
    expect(readIssuerCertificate(copy)).not.toBe(issuing);
    expect(readIssuerCertificate(copy).subject).toBe(issuing.subject);
  });
});
