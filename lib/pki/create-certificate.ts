import { webcrypto } from "node:crypto";
import { crlDistributionUrl } from "@/lib/pki/crl-distribution-url";
import type { CertificateWithKey, IssuedCertificate, TokenCertificate, TokenKeyMaker } from "@/lib/pki/issued-certificate";
import { x509SigningWith } from "@/lib/pki/x509-signing";
import { x509 } from "@/lib/pki/x509-provider";
import { readCertificate } from "@/lib/pki/check-pki-signatures";

const keyAlgorithm: EcKeyGenParams = { name: "ECDSA", namedCurve: "P-256" };
const signingAlgorithm: EcdsaParams = { name: "ECDSA", hash: "SHA-256" };

export type CertificateProfile = {
  subject: x509.JsonNameParams;
  /** Absent for a self-signed root. */
  issuer?: CertificateWithKey;
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

/**
 * Creates an ECDSA P-256 key pair and a certificate for it, self-signed or signed by the issuer. With
 * a token key maker the pair is generated inside the PKCS#11 token and only its label comes back.
 */
export async function createCertificate(profile: CertificateProfile): Promise<IssuedCertificate>;
export async function createCertificate(profile: CertificateProfile, tokenKey: TokenKeyMaker): Promise<TokenCertificate>;
export async function createCertificate(profile: CertificateProfile, tokenKey?: TokenKeyMaker): Promise<IssuedCertificate | TokenCertificate> {
  if (tokenKey) {
    const privateKey = await tokenKey();
    const certificateDer = await certify(profile, new Uint8Array(privateKey.publicKeySpkiDer), x509SigningWith(privateKey));
    return { certificateDer, privateKey };
  }
  const keys = (await webcrypto.subtle.generateKey(keyAlgorithm, true, ["sign", "verify"])) as CryptoKeyPair;
  const certificateDer = await certify(profile, keys.publicKey, { signingKey: keys.privateKey });
  const pkcs8 = new Uint8Array(await webcrypto.subtle.exportKey("pkcs8", keys.privateKey));
  return { certificateDer, pkcs8, privateKey: keys.privateKey };
}

/** The certificate for `publicKey`, signed by the issuer's key or, for a root, by its own (`selfSigning`). */
async function certify(
  profile: CertificateProfile,
  publicKey: CryptoKey | Uint8Array<ArrayBuffer>,
  selfSigning: { signingKey: CryptoKey; crypto?: Crypto },
): Promise<Uint8Array> {
  const extensions = [...profile.extensions, await x509.SubjectKeyIdentifierExtension.create(publicKey)];
  const common = {
    serialNumber: randomSerialNumberHex(),
    notBefore: profile.notBefore,
    notAfter: profile.notAfter,
    signingAlgorithm,
  };

  if (!profile.issuer) {
    const name = new x509.Name(profile.subject);
    // what X509CertificateGenerator.createSelfSigned does, with a key that may live in the token
    const certificate = await x509.X509CertificateGenerator.create(
      { ...common, subject: name, issuer: name, publicKey, signingKey: selfSigning.signingKey, extensions },
      selfSigning.crypto,
    );
    return new Uint8Array(certificate.rawData);
  }
  if (!profile.crlBaseUrl) throw new Error("crlBaseUrl is required for an issued certificate");
  const issuerCertificate = readCertificate(profile.issuer.certificateDer);
  const issuerKeyId = issuerCertificate.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  if (!issuerKeyId) throw new Error("The issuer certificate has no subject key identifier");
  const issuerCommonName = issuerCertificate.subjectName.getField("CN")[0] ?? issuerCertificate.subject;
  extensions.push(
    new x509.AuthorityKeyIdentifierExtension(issuerKeyId),
    new x509.CRLDistributionPointsExtension([crlDistributionUrl(profile.crlBaseUrl, issuerCommonName)]),
  );
  const issuerSigning = x509SigningWith(profile.issuer.privateKey);
  const certificate = await x509.X509CertificateGenerator.create(
    {
      ...common,
      subject: new x509.Name(profile.subject),
      // the issuer's own encoded subject, so name chaining compares equal byte for byte
      issuer: issuerCertificate.subjectName,
      publicKey,
      signingKey: issuerSigning.signingKey,
      extensions,
    },
    issuerSigning.crypto,
  );
  return new Uint8Array(certificate.rawData);
}
