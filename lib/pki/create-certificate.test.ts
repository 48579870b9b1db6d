import { webcrypto } from "node:crypto";
import * as asn1js from "asn1js";
import { beforeAll, describe, expect, it } from "vitest";
import { createCertificate, randomSerialNumberHex, signCertificate } from "@/lib/pki/create-certificate";
import { createPkiHierarchy, type PkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { x509 } from "@/lib/pki/x509-provider";

/** A certificate's TBSCertificate, the bytes as they are encoded. */
function tbsHex(certificateDer: ArrayBuffer): string {
  const certificate = asn1js.fromBER(certificateDer).result as asn1js.Sequence;
  return Buffer.from(certificate.valueBlock.value[0]!.valueBeforeDecodeView).toString("hex");
}

// signCertificate assembles the certificate from encoded parts instead of through
// X509CertificateGenerator.create; the library stays the reference for what is encoded.
describe("signCertificate", () => {
  let pki: PkiHierarchy;
  let spkiDer: Uint8Array;
  beforeAll(async () => {
    pki = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "https://crl.example.test" });
    const keys = (await webcrypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    spkiDer = new Uint8Array(await webcrypto.subtle.exportKey("spki", keys.publicKey));
  });

  const subject = new x509.Name([{ C: ["PE"] }, { O: ["Demo S.A.C."] }, { SN: ["Pérez Ñuñez"] }, { G: ["María José"] }, { "2.5.4.5": [{ printableString: "IDCPER-12345678" }] }, { CN: ["María José Pérez Ñuñez"] }]);
  const extensions = () => [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
    new x509.CertificatePolicyExtension(["1.3.6.1.4.1.99999.1.2"], false),
  ];

  for (const [label, notAfter] of [
    ["the last UTCTime second, 2049-12-31T23:59:59", new Date("2049-12-31T23:59:59.999Z")],
    ["the first GeneralizedTime second, 2050-01-01T00:00:00", new Date("2050-01-01T00:00:00Z")],
  ] as const) {
    it(`encodes exactly the TBSCertificate the x509 generator encodes from the same fields: ${label}`, async () => {
      const issuing = new x509.X509Certificate(pki.issuing.certificateDer.slice());
      const fields = { serialNumberHex: randomSerialNumberHex(), notBefore: new Date("2030-01-01T00:00:00.456Z"), notAfter, spkiDer, extensions: extensions() };
      const ours = new x509.X509Certificate(
        await signCertificate({ ...fields, subjectDer: new Uint8Array(subject.toArrayBuffer()), issuerDer: new Uint8Array(issuing.subjectName.toArrayBuffer()) }, { signingKey: pki.issuing.privateKey }),
      );
      const reference = await x509.X509CertificateGenerator.create({
        serialNumber: fields.serialNumberHex,
        notBefore: fields.notBefore,
        notAfter: fields.notAfter,
        subject,
        issuer: issuing.subjectName,
        publicKey: spkiDer.slice().buffer,
        signingKey: pki.issuing.privateKey,
        signingAlgorithm: { name: "ECDSA", hash: "SHA-256" } as EcdsaParams,
        extensions: fields.extensions,
      });
      expect(tbsHex(ours.rawData)).toBe(tbsHex(reference.rawData));
      expect(ours.signatureAlgorithm).toEqual(reference.signatureAlgorithm);
      // the signature is the issuer's over those bytes (and nobody else's)
      expect(await ours.verify({ publicKey: issuing.publicKey, signatureOnly: true })).toBe(true);
      expect(await ours.verify({ publicKey: new x509.X509Certificate(pki.root.certificateDer.slice()).publicKey, signatureOnly: true })).toBe(false);
    });
  }
});

describe("the subject key identifier", () => {
  it("is the one x509 computes, for the P-256 keys we make and for any other key", async () => {
    const p256 = (await webcrypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const p384 = (await webcrypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-384" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const root = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "https://crl.example.test" });
    for (const keys of [p256, p384]) {
      const spki = await webcrypto.subtle.exportKey("spki", keys.publicKey);
      // a key that lives elsewhere (a token) comes as its SubjectPublicKeyInfo; the issuer signs
      const profile = { subject: [{ CN: ["Key id"] }], issuer: root.issuing, crlBaseUrl: "https://crl.example.test", notBefore: new Date(), notAfter: new Date(Date.now() + 60_000), extensions: [] };
      const issued = await createCertificate(profile, async () => ({ token: "pkcs11", label: "elsewhere", publicKeySpkiDer: new Uint8Array(spki) }));
      const keyId = new x509.X509Certificate(issued.certificateDer.slice()).getExtension(x509.SubjectKeyIdentifierExtension)!.keyId;
      expect(keyId).toBe((await x509.SubjectKeyIdentifierExtension.create(spki)).keyId);
    }
  });
});
