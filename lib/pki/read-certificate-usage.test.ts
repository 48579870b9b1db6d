import { describe, expect, test } from "vitest";
import { createPkiHierarchy } from "./generate-pki-hierarchy";
import { issueHolderCertificate, issueSignerCertificate } from "./issue-certificate";
import { createCertificate } from "./create-certificate";
import { realWorldCertificates } from "./testing/real-world-certificates";
import { readCertificateUsage, readUsageWithX509 } from "./read-certificate-usage";
import { readX509Certificate, x509 } from "./x509-provider";
import { seededRandom } from "@/test/seeded-random";

type Reading = ReturnType<typeof readUsageWithX509> | "refused" | "unreadable certificate";

/** x509's reading, the reference; "unreadable certificate" when x509 cannot parse the certificate at all (a chain check stops before asking). */
function withX509(der: Uint8Array): Reading {
  let certificate;
  try {
    certificate = readX509Certificate(der);
  } catch {
    return "unreadable certificate";
  }
  try {
    return readUsageWithX509(certificate);
  } catch {
    return "refused";
  }
}

/** This module's reading, and whether it asked x509 (the fallback) or read the bytes itself. */
function now(der: Uint8Array): { reading: Reading; path: "strict" | "x509" } {
  let path: "strict" | "x509" = "strict";
  try {
    const reading = readCertificateUsage(der, () => {
      path = "x509";
      return readX509Certificate(der);
    });
    return { reading, path };
  } catch {
    return { reading: "refused", path };
  }
}

const hour = 3_600_000;
const withExtensions = async (extensions: x509.Extension[]) => {
  const pki = await hierarchy;
  const now = Date.now();
  return (await createCertificate({ subject: [{ CN: ["Usage test"] }], issuer: pki.issuing, notBefore: new Date(now - hour), notAfter: new Date(now + hour), extensions, crlBaseUrl: "https://crl.example.test" })).certificateDer;
};
const hierarchy = createPkiHierarchy({ environment: "quality", crlBaseUrl: "https://crl.example.test" });
const flags = x509.KeyUsageFlags;

describe("readCertificateUsage: key usage, extended key usage and basic constraints without x509's full parse", () => {
  test("reads what x509 reads, for our certificates, other CAs' and the corner cases of each extension", async () => {
    const pki = await hierarchy;
    const signer = await issueSignerCertificate(pki.issuing, { givenNames: "José", lastNames: "Pérez", nationality: "PER", idType: "DNI", idNumber: "12345678", validityMinutes: 15, crlBaseUrl: "https://crl.example.test", policyOids: ["1.3.6.1.4.1.99999.2.1"] });
    const holder = await issueHolderCertificate(pki.issuing, { givenNames: "Ana", lastNames: "Rojas", nationality: "PER", idType: "DNI", idNumber: "45493496", organization: "Org SAC", validityDays: 30, crlBaseUrl: "https://crl.example.test" });
    const corners = await Promise.all([
      withExtensions([]),
      withExtensions([new x509.KeyUsagesExtension(flags.keyEncipherment, true)]),
      // decipherOnly is bit 8: a second octet
      withExtensions([new x509.KeyUsagesExtension(flags.digitalSignature | flags.decipherOnly, true)]),
      withExtensions([new x509.KeyUsagesExtension(flags.encipherOnly | flags.cRLSign)]),
      withExtensions([new x509.KeyUsagesExtension(0 as x509.KeyUsageFlags)]),
      withExtensions([new x509.ExtendedKeyUsageExtension([])]),
      withExtensions([new x509.ExtendedKeyUsageExtension(["1.3.6.1.5.5.7.3.8", "1.3.6.1.5.5.7.3.9", "1.2.3.4.5.6.7.8.9.1000000"], true)]),
      withExtensions([new x509.BasicConstraintsExtension(false)]),
      withExtensions([new x509.BasicConstraintsExtension(true)]),
      withExtensions([new x509.BasicConstraintsExtension(true, 0, true)]),
      withExtensions([new x509.BasicConstraintsExtension(true, 127)]),
      withExtensions([new x509.BasicConstraintsExtension(true, 128)]),
      withExtensions([new x509.BasicConstraintsExtension(true, 70_000)]),
      withExtensions([new x509.BasicConstraintsExtension(true, 2 ** 24)]),
      // the first of two extensions of a type counts, for x509 and here
      withExtensions([new x509.KeyUsagesExtension(flags.keyCertSign), new x509.KeyUsagesExtension(flags.digitalSignature), new x509.BasicConstraintsExtension(false), new x509.BasicConstraintsExtension(true, 2)]),
    ]);
    const certificates = [pki.root.certificateDer, pki.issuing.certificateDer, pki.tsa.certificateDer, signer.certificateDer, holder.certificateDer, ...corners, ...realWorldCertificates()];
    expect(certificates.length).toBeGreaterThan(50);
    const paths = { strict: 0, x509: 0 };
    for (const der of certificates) {
      const reading = now(der);
      expect(reading.reading, Buffer.from(der).toString("base64")).toEqual(withX509(der));
      paths[reading.path]++;
    }
    // our certificates and most others are read directly; the 4-octet pathLenConstraint and BER files go to x509
    expect(paths.strict).toBeGreaterThan(40);
    expect(paths.x509).toBeGreaterThan(0);
    expect(now(corners[13]).path).toBe("x509");
    // and the values themselves, not only the agreement
    expect(now(corners[2]).reading).toEqual({ keyUsage: 0b1_0000_0001 });
    expect(now(corners[12]).reading).toEqual({ basicConstraints: { ca: true, pathLength: 70_000 } });
    expect(now(corners[14]).reading).toEqual({ keyUsage: flags.keyCertSign, basicConstraints: { ca: false } });
  }, 60_000);

  test("a changed octet anywhere in a certificate: the same reading as x509 whenever x509 reads the extensions", async () => {
    const pki = await hierarchy;
    const signer = await issueSignerCertificate(pki.issuing, { givenNames: "José", lastNames: "Pérez", nationality: "PER", idType: "DNI", idNumber: "12345678", validityMinutes: 15, crlBaseUrl: "https://crl.example.test" });
    const random = seededRandom(3279);
    const compared = { strict: 0, x509: 0 };
    for (const der of [signer.certificateDer, pki.issuing.certificateDer, pki.tsa.certificateDer]) {
      for (let i = 0; i < 400; i++) {
        const mutated = new Uint8Array(der);
        mutated[Math.floor(random() * der.length)] = Math.floor(random() * 256);
        const reference = withX509(mutated);
        if (reference === "unreadable certificate" || reference === "refused") continue;
        const reading = now(mutated);
        expect(reading.reading, Buffer.from(mutated).toString("base64")).toEqual(reference);
        compared[reading.path]++;
      }
    }
    // most changes leave a certificate x509 still reads (a name, a key, a signature octet), and those are read directly
    expect(compared.strict).toBeGreaterThan(300);
  }, 60_000);
});
