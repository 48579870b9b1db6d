import { createHash, webcrypto } from "node:crypto";
import { der } from "@/lib/pki/der-encoder";
import { convertEcdsaRawToDer } from "@/lib/pki/ecdsa-signature-format";
import { crlDistributionUrl } from "@/lib/pki/crl-distribution-url";
import type { CertificateWithKey, IssuedCertificate, TokenCertificate, TokenKeyMaker } from "@/lib/pki/issued-certificate";
import { x509SigningWith } from "@/lib/pki/x509-signing";
import { x509 } from "@/lib/pki/x509-provider";
import { readCertificate, readCertificateFields } from "@/lib/pki/check-pki-signatures";

const keyAlgorithm: EcKeyGenParams = { name: "ECDSA", namedCurve: "P-256" };
const signingAlgorithm: EcdsaParams = { name: "ECDSA", hash: "SHA-256" };
/** ecdsa-with-SHA256 (RFC 5758): its AlgorithmIdentifier has no parameters. */
const ecdsaWithSha256 = der.sequence(der.oid("1.2.840.10045.4.3.2"));

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
  const spkiDer = publicKey instanceof Uint8Array ? publicKey : new Uint8Array(await webcrypto.subtle.exportKey("spki", publicKey));
  const extensions = [...profile.extensions, await subjectKeyIdentifier(spkiDer)];
  const subjectDer = new Uint8Array(new x509.Name(profile.subject).toArrayBuffer());
  const common = { serialNumberHex: randomSerialNumberHex(), notBefore: profile.notBefore, notAfter: profile.notAfter, subjectDer, spkiDer };

  // self-signed: the root, whose key may live in the token too
  if (!profile.issuer) return signCertificate({ ...common, issuerDer: subjectDer, extensions }, selfSigning);
  if (!profile.crlBaseUrl) throw new Error("crlBaseUrl is required for an issued certificate");
  extensions.push(...pointersToIssuer(profile.issuer.certificateDer, profile.crlBaseUrl));
  // the issuer's own encoded subject, copied, so name chaining compares equal byte for byte
  const issuerDer = readCertificateFields(profile.issuer.certificateDer).subjectDer;
  return signCertificate({ ...common, issuerDer, extensions }, x509SigningWith(profile.issuer.privateKey));
}

/** The SubjectPublicKeyInfo of every P-256 key up to its 65-byte point (RFC 5480): the keys we make. */
const p256SpkiPrefix = Buffer.from("3059301306072a8648ce3d020106082a8648ce3d030107034200", "hex");

/**
 * RFC 5280 4.2.1.2 method 1, the SHA-1 of the subject public key's bits, as x509's own
 * SubjectKeyIdentifierExtension.create computes it (the test compares them): read straight from a
 * P-256 key's fixed layout, through the library for any other.
 */
async function subjectKeyIdentifier(spkiDer: Uint8Array<ArrayBuffer>): Promise<x509.Extension> {
  if (spkiDer.length !== p256SpkiPrefix.length + 65 || !p256SpkiPrefix.equals(spkiDer.subarray(0, p256SpkiPrefix.length))) {
    return x509.SubjectKeyIdentifierExtension.create(spkiDer);
  }
  return new x509.SubjectKeyIdentifierExtension(createHash("sha1").update(spkiDer.subarray(p256SpkiPrefix.length)).digest("hex"));
}

/** AKI and CRL distribution point of an issuer: the same for every certificate it issues, so built once per issuer and URL. */
const issuerPointers = new Map<string, x509.Extension[]>();

function pointersToIssuer(issuerDer: Uint8Array, crlBaseUrl: string): x509.Extension[] {
  const key = `${createHash("sha256").update(issuerDer).digest("hex")} ${crlBaseUrl}`;
  const known = issuerPointers.get(key);
  if (known) return known;
  const issuerCertificate = readCertificate(issuerDer);
  const issuerKeyId = issuerCertificate.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  if (!issuerKeyId) throw new Error("The issuer certificate has no subject key identifier");
  const issuerCommonName = issuerCertificate.subjectName.getField("CN")[0] ?? issuerCertificate.subject;
  const pointers = [new x509.AuthorityKeyIdentifierExtension(issuerKeyId), new x509.CRLDistributionPointsExtension([crlDistributionUrl(crlBaseUrl, issuerCommonName)])];
  // a few issuers (an environment's CA, one renewed) and one public URL: the bound is never reached in use
  if (issuerPointers.size >= 16) issuerPointers.clear();
  issuerPointers.set(key, pointers);
  return pointers;
}

/**
 * The DER of a v3 certificate with these fields, signed ECDSA P-256 / SHA-256, assembled from the
 * encoded names, key and extensions as they are (der-encoder.ts, as CMS and time-stamps are). It is
 * the structure X509CertificateGenerator.create encodes (the test compares them byte for byte); the
 * generator's ASN.1 schema round trips (each part parsed back, the TBS encoded twice, the result
 * parsed again) were most of a signer certificate's cost.
 */
export async function signCertificate(
  fields: { serialNumberHex: string; notBefore: Date; notAfter: Date; subjectDer: Uint8Array; issuerDer: Uint8Array; spkiDer: Uint8Array; extensions: x509.Extension[] },
  signing: { signingKey: CryptoKey; crypto?: Crypto },
): Promise<Uint8Array<ArrayBuffer>> {
  // randomSerialNumberHex's first byte is 0x01-0x7f: the bytes are already a positive minimal INTEGER
  const serial = Buffer.from(fields.serialNumberHex, "hex");
  if (serial.length === 0 || serial[0]! === 0 || serial[0]! > 0x7f) throw new Error("The serial number must be positive without a leading zero");
  const tbsDer = der.sequence(
    der.explicit(0, der.integer(2)),
    der.integer(serial),
    ecdsaWithSha256,
    fields.issuerDer,
    der.sequence(certificateTime(fields.notBefore), certificateTime(fields.notAfter)),
    fields.subjectDer,
    fields.spkiDer,
    der.explicit(3, der.sequence(...fields.extensions.map((extension) => new Uint8Array(extension.rawData)))),
  );
  const subtle = (signing.crypto ?? webcrypto).subtle;
  const signatureRaw = new Uint8Array(await subtle.sign(signingAlgorithm, signing.signingKey, tbsDer));
  return der.sequence(tbsDer, ecdsaWithSha256, der.tlv(0x03, Uint8Array.of(0), convertEcdsaRawToDer(signatureRaw)));
}

/** RFC 5280 4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050, whole seconds, in UTC. */
function certificateTime(date: Date): Uint8Array {
  const seconds = new Date(Math.floor(date.getTime() / 1000) * 1000);
  if (seconds.getUTCFullYear() >= 2050) return der.generalizedTime(seconds);
  return der.tlv(0x17, new TextEncoder().encode(seconds.toISOString().slice(2, 19).replace(/[-:T]/g, "") + "Z"));
}
