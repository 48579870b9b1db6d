import { webcrypto } from "node:crypto";
import { crlDistributionUrl } from "@/lib/pki/crl-distribution-url";
import type { IssuedCertificate } from "@/lib/pki/issued-certificate";
import { readX509Certificate, x509 } from "@/lib/pki/x509-provider";

const keyAlgorithm: EcKeyGenParams = { name: "ECDSA", namedCurve: "P-256" };
const signingAlgorithm: EcdsaParams = { name: "ECDSA", hash: "SHA-256" };

export type CertificateProfile = {
  subject: x509.JsonNameParams;
  /** Absent for a self-signed root. */
  issuer?: IssuedCertificate;
  notBefore: Date;
  notAfter: Date;
  /** Profile extensions (basic constraints, key usage, EKU); key identifiers and CRL DP are added here. */
  extensions: x509.Extension[];
  /** Required when issuer is given: issued certificates point at their issuer's CRL. */
  crlBaseUrl?: string;
};

/** Positive 128-bit serial (RFC 5280 allows up to 20 octets; the entropy defeats collision attacks). */
export function randomSerialNumberHex(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return Buffer.from(bytes).toString("hex");
}

/** Creates an ECDSA P-256 key pair and a certificate for it, self-signed or signed by the issuer. */
export async function createCertificate(profile: CertificateProfile): Promise<IssuedCertificate> {
  const keys = (await webcrypto.subtle.generateKey(keyAlgorithm, true, ["sign", "verify"])) as CryptoKeyPair;
  const extensions = [...profile.extensions, await x509.SubjectKeyIdentifierExtension.create(keys.publicKey)];
  const common = {
    serialNumber: randomSerialNumberHex(),
    notBefore: profile.notBefore,
    notAfter: profile.notAfter,
    signingAlgorithm,
  };

  let certificate: x509.X509Certificate;
  if (!profile.issuer) {
    certificate = await x509.X509CertificateGenerator.createSelfSigned({
      ...common,
      name: new x509.Name(profile.subject),
      keys,
      extensions,
    });
  } else {
    if (!profile.crlBaseUrl) throw new Error("crlBaseUrl is required for an issued certificate");
    const issuerCertificate = readX509Certificate(profile.issuer.certificateDer);
    const issuerKeyId = issuerCertificate.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
    if (!issuerKeyId) throw new Error("The issuer certificate has no subject key identifier");
    const issuerCommonName = issuerCertificate.subjectName.getField("CN")[0] ?? issuerCertificate.subject;
    extensions.push(
      new x509.AuthorityKeyIdentifierExtension(issuerKeyId),
      new x509.CRLDistributionPointsExtension([crlDistributionUrl(profile.crlBaseUrl, issuerCommonName)]),
    );
    certificate = await x509.X509CertificateGenerator.create({
      ...common,
      subject: new x509.Name(profile.subject),
      // the issuer's own encoded subject, so name chaining compares equal byte for byte
      issuer: issuerCertificate.subjectName,
      publicKey: keys.publicKey,
      signingKey: profile.issuer.privateKey,
      extensions,
    });
  }

  const pkcs8 = new Uint8Array(await webcrypto.subtle.exportKey("pkcs8", keys.privateKey));
  return { certificateDer: new Uint8Array(certificate.rawData), pkcs8, privateKey: keys.privateKey };
}
