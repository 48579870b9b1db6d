import { createHash } from "node:crypto";
import type { Db } from "@/db/client";
import { createTimeStampToken } from "@/lib/tsa/create-time-stamp-token";
import { answerTimeStampRequestDer, type TimeStampAnswer } from "@/lib/tsa/respond-to-time-stamp-request";
import { requestExternalTimeStamp } from "@/lib/tsa/request-external-time-stamp";
import { loadPlatformPki, type PkiSettings } from "./load-platform-pki";
import { nextTsaSerialNumber } from "./reserve-tsa-serial-numbers";

/** Our TSA policy, self-assigned under the UUID arc (ITU-T X.667), so it collides with nobody. */
export const TSA_POLICY_OID = "2.25.15145431914026124862690729721513669873";

/** Turns a SHA-256 digest into an RFC 3161 TimeStampToken. */
export type TimeStamper = (digestSha256: Uint8Array) => Promise<Uint8Array>;

export type TsaSettings = PkiSettings & { externalTsaUrl?: string; externalTsaToken?: string };

/**
 * The time-stamp source chosen once from configuration: the built-in TSA, or an external RFC 3161
 * service when TSA_URL is set. These stamp signatures: built-in tokens carry no certificates, the
 * TSA certificate goes into the document's DSS instead, because poppler/NSS rejects every other
 * signature when signature time-stamp tokens carry it (docs/pdf-engine.md).
 */
export function timeStamperFor({ db, settings }: { db: Db; settings: TsaSettings }): Promise<TimeStamper> {
  return stamperFor(db, settings, false);
}

/**
 * For the document time-stamp (B-LTA): the token carries the TSA certificate, as iText and
 * Adobe-style validators require ("Can't find signing certificate" otherwise). poppler accepts it
 * there (lib/certificates/long-term-outputs.test.ts checks every signature of such files).
 */
export function documentTimeStamperFor({ db, settings }: { db: Db; settings: TsaSettings }): Promise<TimeStamper> {
  return stamperFor(db, settings, true);
}

async function stamperFor(db: Db, settings: TsaSettings, includeCertificates: boolean): Promise<TimeStamper> {
  if (settings.externalTsaUrl) {
    const url = settings.externalTsaUrl;
    const headers: Record<string, string> = settings.externalTsaToken ? { authorization: `Bearer ${settings.externalTsaToken}` } : {};
    return (digest) => requestExternalTimeStamp(url, digest, { headers, timeoutMs: 15_000 });
  }
  const pki = await loadPlatformPki({ db, settings });
  const tsa = { certificateDer: pki.tsa.certificateDer, privateKey: pki.tsa.privateKey, chainDer: [pki.issuing.certificateDer] };
  return async (digest) =>
    createTimeStampToken({
      digest,
      hashAlgorithm: "SHA-256",
      tsa,
      serialNumber: await nextTsaSerialNumber(db),
      policyOid: TSA_POLICY_OID,
      includeCertificates,
    });
}

/** The PAdES signature-time-stamp: a token over SHA-256 of the CMS signature value. */
export function signatureTimestampFrom(timeStamper: TimeStamper) {
  return (signatureValue: Uint8Array) => timeStamper(new Uint8Array(createHash("sha256").update(signatureValue).digest()));
}

/** Answers a DER TimeStampReq with the built-in TSA (used by /api/tsa and signTimeStamp). */
export async function answerTimeStampRequest(requestDer: Uint8Array, { db, settings }: { db: Db; settings: PkiSettings }): Promise<TimeStampAnswer> {
  const pki = await loadPlatformPki({ db, settings });
  return answerTimeStampRequestDer(requestDer, {
    tsa: { certificateDer: pki.tsa.certificateDer, privateKey: pki.tsa.privateKey, chainDer: [pki.issuing.certificateDer] },
    policyOid: TSA_POLICY_OID,
    nextSerialNumber: () => nextTsaSerialNumber(db),
  });
}
