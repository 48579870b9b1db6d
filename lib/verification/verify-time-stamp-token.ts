import { checkCertificateChain } from "./check-certificate-chain";
import type { ValidationMaterial } from "./find-revocation-status";
import { readSignedData, readTimeStampToken, type SignedDataReading } from "@/lib/pki/read-signed-data";
import { readTstInfo } from "@/lib/tsa/read-tst-info";
import { digestOf, findSignerCertificate, SignerInfoError, verifySignerInfo } from "./verify-signer-info";
import { oids } from "@/lib/pki/object-identifiers";
import { readCertificate } from "@/lib/pki/check-pki-signatures";

export type TimeStampCheck = {
  at: Date;
  /** The token's imprint is the digest of what it claims to time-stamp. */
  matchesImprint: boolean;
  /** Imprint, token signature and TSA certificate (EKU, chain rules) all hold. */
  valid: boolean;
  trusted: boolean;
  authority?: string;
  certificateDer?: Uint8Array;
  revocation: "good" | "revoked" | "unknown";
  detail?: string;
};

/**
 * The token: its bytes, a reading of them (a document time-stamp's CMS, already read), or a
 * signature time-stamp of a CMS reading, read from the tree parsed with that CMS.
 */
export type TimeStampTokenSource = Uint8Array | SignedDataReading | { cms: SignedDataReading; index: number };

function readToken(source: TimeStampTokenSource): SignedDataReading {
  if (source instanceof Uint8Array) return readSignedData(source, { readCertificate });
  if ("cms" in source) return readTimeStampToken(source.cms, source.index, { readCertificate });
  return source;
}

/**
 * Verifies an RFC 3161 token over `timeStamped` (the signature value for a signature time-stamp, the
 * signed byte ranges for a document time-stamp). The TSA certificate may travel in the token or in the
 * document's DSS; either way it must carry the timeStamping purpose and chain at the token's time.
 * `{ sha256 }`: the SHA-256 of what was time-stamped, when the caller hashed it already (a token over
 * another digest algorithm then does not match).
 */
export async function verifyTimeStampToken(tokenSource: TimeStampTokenSource, timeStamped: Uint8Array | { sha256: Uint8Array }, material: ValidationMaterial & { anchorsDer: Uint8Array[] }): Promise<TimeStampCheck> {
  const token = readToken(tokenSource);
  const tst = readTstInfo(token);
  const base = { at: tst.genTime, matchesImprint: false, valid: false, trusted: false, revocation: "unknown" as const };
  let matchesImprint: boolean;
  try {
    matchesImprint =
      timeStamped instanceof Uint8Array
        ? digestOf(tst.hashAlgorithmOid, timeStamped).equals(Buffer.from(tst.imprint))
        : tst.hashAlgorithmOid === oids.sha256 && Buffer.from(timeStamped.sha256).equals(Buffer.from(tst.imprint));
  } catch (error) {
    return { ...base, detail: (error as Error).message };
  }
  if (!matchesImprint) return { ...base, detail: "the time-stamp imprint does not match what it claims to time-stamp" };
  const certificate = findSignerCertificate(token, [...token.certificatesDer, ...material.certificatesDer, ...material.anchorsDer]);
  if (!certificate) return { ...base, matchesImprint, detail: "the TSA certificate is neither in the token nor in the document's DSS" };
  const authority = commonName(certificate);
  const found = { authority, certificateDer: certificate };
  try {
    verifySignerInfo(token, token.encapsulatedContent!, certificate, { requireBinding: true });
  } catch (error) {
    return { ...base, matchesImprint, ...found, detail: error instanceof SignerInfoError ? `time-stamp token: ${error.message}` : "time-stamp token signature does not verify" };
  }
  const chain = await checkCertificateChain(certificate, { ...material, certificatesDer: [...token.certificatesDer, ...material.certificatesDer] }, tst.genTime, "time-stamping");
  if (chain.status === "invalid") return { ...base, matchesImprint, ...found, revocation: chain.revocation, detail: chain.reason };
  return { at: tst.genTime, matchesImprint, valid: true, trusted: chain.status === "trusted", ...found, revocation: chain.revocation, detail: chain.reason };
}

/** The subject's organization (O), when the certificate names one. */
export function organizationName(certificateDer: Uint8Array): string | undefined {
  try {
    return readCertificate(certificateDer).subjectName.getField("O")[0];
  } catch {
    return undefined;
  }
}

export function commonName(certificateDer: Uint8Array): string | undefined {
  try {
    const name = readCertificate(certificateDer).subjectName;
    return name.getField("CN")[0] ?? name.toString();
  } catch {
    return undefined;
  }
}
