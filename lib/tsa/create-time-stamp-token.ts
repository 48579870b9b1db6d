import { createHash } from "node:crypto";
import { buildSignedData } from "@/lib/pki/build-signed-data";
import { der } from "@/lib/pki/der-encoder";
import { PkiError } from "@/lib/pki/errors";
import { oids } from "@/lib/pki/object-identifiers";
import { parseCertificateFields } from "@/lib/pki/parse-certificate-fields";
import { type CmsSignerInput, prepareCmsSigner } from "@/lib/pki/prepare-cms-signer";
import { type TimeStampHashAlgorithm, timeStampHashAlgorithms } from "@/lib/tsa/time-stamp-hash-algorithms";
import { metrics } from "@/lib/metrics/metrics";

/** The TSA's certificate (critical EKU timeStamping), its key and the chain up to the root. */
export type TimeStampAuthority = CmsSignerInput;

export type CreateTimeStampTokenInput = {
  digest: Uint8Array;
  hashAlgorithm: TimeStampHashAlgorithm;
  tsa: TimeStampAuthority;
  serialNumber: bigint;
  policyOid: string;
  includeCertificates: boolean;
  now?: Date;
  /** Content octets of the request's nonce INTEGER, echoed byte for byte. */
  nonceDer?: Uint8Array;
  /** Default 1 second; 0 leaves accuracy out. */
  accuracySeconds?: number;
  /** Adds the TSA's subject as the TSTInfo tsa field. */
  includeTsaName?: boolean;
  /** A request's MessageImprint, copied verbatim instead of encoding digest and hashAlgorithm. */
  messageImprintDer?: Uint8Array;
};

function checkInput(input: CreateTimeStampTokenInput): void {
  const expectedLength = timeStampHashAlgorithms[input.hashAlgorithm]?.length;
  if (input.digest.length !== expectedLength) throw new PkiError("INVALID_INPUT", `digest must be a ${input.hashAlgorithm} value`);
  // RFC 3161 2.4.2: positive, at most 160 bits
  if (input.serialNumber <= 0n || input.serialNumber >= 1n << 160n) throw new PkiError("INVALID_INPUT", "serialNumber out of range");
  if (!/^\d+(\.\d+)+$/.test(input.policyOid)) throw new PkiError("INVALID_INPUT", "policyOid is not an OID");
}

/** RFC 3161 TimeStampToken: CMS SignedData over a TSTInfo, signed by the TSA with an ESS signing-certificate-v2. */
export async function createTimeStampToken(input: CreateTimeStampTokenInput): Promise<Uint8Array> {
  checkInput(input);
  const signer = prepareCmsSigner(input.tsa);
  const messageImprint =
    input.messageImprintDer ??
    der.sequence(der.sequence(der.oid(timeStampHashAlgorithms[input.hashAlgorithm].oid)), der.octetString(input.digest));
  const accuracySeconds = input.accuracySeconds ?? 1;

  const tstInfo = der.sequence(
    der.integer(1),
    der.oid(input.policyOid),
    messageImprint,
    der.integer(input.serialNumber),
    der.generalizedTime(input.now ?? new Date()),
    ...(accuracySeconds > 0 ? [der.sequence(der.integer(accuracySeconds))] : []),
    ...(input.nonceDer ? [der.integer(input.nonceDer)] : []),
    // tsa [0] GeneralName: a CHOICE, so explicitly tagged, holding directoryName [4]
    ...(input.includeTsaName ? [der.explicit(0, der.explicit(4, parseCertificateFields(input.tsa.certificateDer).subjectDer))] : []),
  );

  const token = await buildSignedData({
    signer,
    eContentType: oids.tstInfo,
    eContent: tstInfo,
    messageDigest: new Uint8Array(createHash("sha256").update(tstInfo).digest()),
    includeCertificates: input.includeCertificates,
  });
  // the TSA signs in the main thread (worker tasks ask it through a call), so the count reaches /api/metrics
  metrics().timeStampTokens.inc();
  return token;
}
