import { der } from "@/lib/pki/der-encoder";
import { oids } from "@/lib/pki/object-identifiers";
import type { PreparedCmsSigner } from "@/lib/pki/prepare-cms-signer";

// RFC 5754: SHA-2 AlgorithmIdentifiers omit the parameters
const sha256AlgorithmId = der.sequence(der.oid(oids.sha256));

export type SignedDataInput = {
  signer: PreparedCmsSigner;
  eContentType: string;
  /** Absent for a detached signature. */
  eContent?: Uint8Array;
  /** SHA-256 of the (possibly detached) content. */
  messageDigest: Uint8Array;
  includeCertificates: boolean;
  /** Encoded Attributes computed from the signature value (e.g. a signature time-stamp). */
  unsignedAttributes?: (signatureValue: Uint8Array) => Promise<Uint8Array[]>;
};

/** Attribute ::= SEQUENCE { attrType OID, attrValues SET OF value } with a single value. */
export function encodeAttribute(type: string, value: Uint8Array): Uint8Array {
  return der.sequence(der.oid(type), der.set(value));
}

/**
 * CMS ContentInfo(SignedData) with one SignerInfo and exactly the signed attributes contentType,
 * messageDigest and signing-certificate-v2 (no signing-time: PAdES baseline forbids it).
 */
export async function buildSignedData(input: SignedDataInput): Promise<Uint8Array> {
  const { signer } = input;
  const signedAttributes = [
    encodeAttribute(oids.contentTypeAttribute, der.oid(input.eContentType)),
    encodeAttribute(oids.messageDigestAttribute, der.octetString(input.messageDigest)),
    signer.signingCertificateV2AttributeDer,
  ];
  // the signature covers the attributes as a DER SET OF (tag 0x31), in the same order they are stored
  const signatureValue = await signer.sign(der.setOf(signedAttributes));
  const unsigned = input.unsignedAttributes ? await input.unsignedAttributes(signatureValue) : [];

  const signerInfo = der.sequence(
    der.integer(1), // v1: sid is issuerAndSerialNumber
    signer.issuerAndSerialNumberDer,
    sha256AlgorithmId,
    der.implicitSetOf(0, signedAttributes),
    signer.signatureAlgorithmDer,
    der.octetString(signatureValue),
    ...(unsigned.length > 0 ? [der.implicitSetOf(1, unsigned)] : []),
  );

  const encapsulatedContentInfo = der.sequence(
    der.oid(input.eContentType),
    ...(input.eContent ? [der.explicit(0, der.octetString(input.eContent))] : []),
  );

  const signedData = der.sequence(
    // RFC 5652 5.1: version 3 when the content type is not id-data
    der.integer(input.eContentType === oids.data ? 1 : 3),
    der.set(sha256AlgorithmId),
    encapsulatedContentInfo,
    ...(input.includeCertificates ? [der.implicitSetOf(0, signer.certificatesDer)] : []),
    der.set(signerInfo),
  );

  return der.sequence(der.oid(oids.signedData), der.explicit(0, signedData));
}
