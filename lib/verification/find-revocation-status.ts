import { createHash, createPublicKey, verify } from "node:crypto";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { x509 } from "@/lib/pki/x509-provider";
import { digestNames, hashOfSignature } from "@/lib/pki/signature-algorithms";
import { isCertificateSignedBy, isCrlSignedBy, readCertificate, readCrl, readUsage } from "@/lib/pki/check-pki-signatures";

const OCSP_SIGNING_EKU = "1.3.6.1.5.5.7.3.9";
const BASIC_OCSP = "1.3.6.1.5.5.7.48.1.1";
const MAX_ITEMS = 256;

/** Certificates, CRLs and OCSP responses gathered from the CMS and the document's DSS. */
export type ValidationMaterial = { certificatesDer: Uint8Array[]; crlsDer: Uint8Array[]; ocspsDer: Uint8Array[] };

/** good: every certificate below the anchor is covered and none is revoked; unknown: some lack data. */
export type RevocationStatus = "good" | "revoked" | "unknown";

/**
 * Judges revocation for each certificate of `chain` but the last (the anchor, or the top of an
 * untrusted path): revoked when a CRL or OCSP response signed by the issuer lists it as revoked at or
 * before `at`; covered when such data exists and was issued at or after the certificate's notBefore
 * (data older than the certificate says nothing about it).
 */
export async function findRevocationStatus(
  chain: x509.X509Certificate[],
  material: ValidationMaterial,
  at: Date,
): Promise<{ status: RevocationStatus; reason?: string }> {
  const crls = material.crlsDer.slice(0, MAX_ITEMS).flatMap(tryReadCrl);
  const ocsps = material.ocspsDer.slice(0, MAX_ITEMS).flatMap(readOcsp);
  let covered = true;
  for (let i = 0; i + 1 < chain.length; i++) {
    const certificate = chain[i];
    const issuer = chain[i + 1];
    const statuses = [...(await crlStatuses(certificate, issuer, crls)), ...(await ocspStatuses(certificate, issuer, ocsps, material.certificatesDer))];
    const revoked = statuses.find((status) => status.revokedAt && status.revokedAt <= at);
    if (revoked) return { status: "revoked", reason: `certificate "${certificate.subject}" was revoked on ${revoked.revokedAt!.toISOString()}` };
    if (!statuses.some((status) => status.issuedAt >= certificate.notBefore)) covered = false;
  }
  return { status: covered ? "good" : "unknown" };
}

type Status = { issuedAt: Date; revokedAt?: Date };

function tryReadCrl(der: Uint8Array): x509.X509Crl[] {
  try {
    return [readCrl(der)];
  } catch {
    return [];
  }
}

async function crlStatuses(certificate: x509.X509Certificate, issuer: x509.X509Certificate, crls: x509.X509Crl[]): Promise<Status[]> {
  const statuses: Status[] = [];
  for (const crl of crls) {
    if (crl.issuer !== issuer.subject) continue;
    if (!(await isCrlSignedBy(crl, issuer))) continue;
    const entry = crl.findRevoked(certificate);
    statuses.push({ issuedAt: crl.thisUpdate, revokedAt: entry?.revocationDate });
  }
  return statuses;
}

type Ocsp = { basic: pkijs.BasicOCSPResponse };

function readOcsp(der: Uint8Array): Ocsp[] {
  try {
    const response = pkijs.OCSPResponse.fromBER(new Uint8Array(der));
    const bytes = response.responseBytes;
    if (!bytes || bytes.responseType !== BASIC_OCSP) return [];
    return [{ basic: pkijs.BasicOCSPResponse.fromBER(new Uint8Array(bytes.response.valueBlock.valueHexView)) }];
  } catch {
    // a DSS may also hold a bare BasicOCSPResponse
    try {
      return [{ basic: pkijs.BasicOCSPResponse.fromBER(new Uint8Array(der)) }];
    } catch {
      return [];
    }
  }
}

async function ocspStatuses(certificate: x509.X509Certificate, issuer: x509.X509Certificate, ocsps: Ocsp[], extraDer: Uint8Array[]): Promise<Status[]> {
  const statuses: Status[] = [];
  // most documents carry CRLs only: the issuer is parsed again only when there are responses to match
  if (ocsps.length === 0) return statuses;
  const serial = Buffer.from(certificate.serialNumber, "hex");
  const parsedIssuer = pkijs.Certificate.fromBER(new Uint8Array(issuer.rawData));
  const issuerName = Buffer.from(parsedIssuer.subject.toSchema().toBER(false));
  const issuerKey = Buffer.from(parsedIssuer.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView);
  for (const { basic } of ocsps) {
    if (!(await verifyOcspSignature(basic, issuer, extraDer))) continue;
    for (const single of basic.tbsResponseData.responses) {
      const id = single.certID;
      const hash = digestNames[id.hashAlgorithm.algorithmId];
      if (!hash) continue;
      const sameSerial = stripZero(Buffer.from(id.serialNumber.valueBlock.valueHexView)).equals(stripZero(serial));
      const sameName = createHash(hash).update(issuerName).digest().equals(Buffer.from(id.issuerNameHash.valueBlock.valueHexView));
      const sameKey = createHash(hash).update(issuerKey).digest().equals(Buffer.from(id.issuerKeyHash.valueBlock.valueHexView));
      if (!sameSerial || !sameName || !sameKey) continue;
      const tag = (single.certStatus as asn1js.BaseBlock).idBlock.tagNumber;
      if (tag === 0) statuses.push({ issuedAt: single.thisUpdate });
      else if (tag === 1) {
        const revocationTime = (single.certStatus as asn1js.Constructed).valueBlock.value[0];
        statuses.push({ issuedAt: single.thisUpdate, revokedAt: revocationTime instanceof asn1js.GeneralizedTime ? revocationTime.toDate() : single.thisUpdate });
      }
    }
  }
  return statuses;
}

function stripZero(bytes: Buffer): Buffer {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  return bytes.subarray(i);
}

/** Signed by the issuer itself, or by a responder certificate the issuer gave the OCSP-signing purpose. */
async function verifyOcspSignature(basic: pkijs.BasicOCSPResponse, issuer: x509.X509Certificate, extraDer: Uint8Array[]): Promise<boolean> {
  const hash = hashOfSignature(basic.signatureAlgorithm.algorithmId);
  if (!hash) return false;
  const candidates = [issuer, ...[...(basic.certs ?? []).map((c) => new Uint8Array(c.toSchema().toBER(false))), ...extraDer].flatMap((der) => {
    try {
      return [readCertificate(der)];
    } catch {
      return [];
    }
  })];
  const tbs = basic.tbsResponseData.tbsView;
  const signature = Buffer.from(basic.signature.valueBlock.valueHexView);
  for (const candidate of candidates) {
    if (candidate !== issuer) {
      if (candidate.issuer !== issuer.subject || !readUsage(candidate).extendedKeyUsage?.includes(OCSP_SIGNING_EKU)) continue;
      if (!(await isCertificateSignedBy(candidate, issuer))) continue;
    }
    try {
      const key = createPublicKey({ key: Buffer.from(candidate.publicKey.rawData), format: "der", type: "spki" });
      const options = key.asymmetricKeyType === "ec" ? { key, dsaEncoding: "der" as const } : key;
      if (verify(hash, tbs, options, signature)) return true;
    } catch {
      // an unreadable candidate key cannot have signed it
    }
  }
  return false;
}
