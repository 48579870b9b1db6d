import * as asn1js from "asn1js";
import { buildSignedData, encodeAttribute } from "@/lib/pki/build-signed-data";
import { PkiError } from "@/lib/pki/errors";
import { oids } from "@/lib/pki/object-identifiers";
import { type CmsSignerInput, type PreparedCmsSigner, prepareCmsSigner } from "@/lib/pki/prepare-cms-signer";

export type SignCadesDetachedInput = {
  /** SHA-256 of the signed content (for PDF: of the ByteRange). */
  digest: Uint8Array;
  /** Raw signer material, or the result of prepareCmsSigner to skip even the cache lookup. */
  signer: CmsSignerInput | PreparedCmsSigner;
  /** Returns a TimeStampToken (ContentInfo DER) over SHA-256 of the signature value. */
  signatureTimestamp?: (signatureValue: Uint8Array) => Promise<Uint8Array>;
};

function isPrepared(signer: CmsSignerInput | PreparedCmsSigner): signer is PreparedCmsSigner {
  return "issuerAndSerialNumberDer" in signer;
}

function checkTimeStampToken(token: Uint8Array): void {
  const parsed = asn1js.fromBER(token);
  if (parsed.offset !== token.length || parsed.result.error || !(parsed.result instanceof asn1js.Sequence)) {
    throw new PkiError("INVALID_CMS", "The signature time-stamp token is not a DER ContentInfo");
  }
}

/** Detached CAdES-BES (PAdES baseline B-B, or B-T with signatureTimestamp) CMS SignedData over a SHA-256 digest. */
export async function signCadesDetached(input: SignCadesDetachedInput): Promise<Uint8Array> {
  if (input.digest.length !== 32) throw new PkiError("INVALID_INPUT", "digest must be a SHA-256 value (32 bytes)");
  const signer = isPrepared(input.signer) ? input.signer : prepareCmsSigner(input.signer);
  const timestamp = input.signatureTimestamp;
  return buildSignedData({
    signer,
    eContentType: oids.data,
    messageDigest: input.digest,
    includeCertificates: true,
    unsignedAttributes: timestamp
      ? async (signatureValue) => {
          const token = await timestamp(signatureValue);
          checkTimeStampToken(token);
          return [encodeAttribute(oids.signatureTimeStampTokenAttribute, token)];
        }
      : undefined,
  });
}

function elements(block: asn1js.AsnType | undefined): asn1js.AsnType[] {
  if (!(block instanceof asn1js.Constructed) && !(block instanceof asn1js.Sequence) && !(block instanceof asn1js.Set)) {
    throw new PkiError("INVALID_CMS", "Malformed CMS SignedData");
  }
  return block.valueBlock.value;
}

/** The signature value of the first SignerInfo: what a signature time-stamp must cover. */
export function signatureValueOf(cmsDer: Uint8Array): Uint8Array {
  const parsed = asn1js.fromBER(cmsDer);
  if (parsed.result.error) throw new PkiError("INVALID_CMS", "The CMS is not valid DER");
  const [contentType, content] = elements(parsed.result);
  if (!(contentType instanceof asn1js.ObjectIdentifier) || contentType.valueBlock.toString() !== oids.signedData) {
    throw new PkiError("INVALID_CMS", "Not a CMS SignedData");
  }
  const signedData = elements(elements(content)[0]);
  const signerInfos = elements(signedData[signedData.length - 1]);
  // sid may be a [0] SubjectKeyIdentifier, so take the first universal OCTET STRING: the signature
  const signature = elements(signerInfos[0]).find(
    (block): block is asn1js.OctetString => block instanceof asn1js.OctetString && block.idBlock.tagClass === 1,
  );
  if (!signature) throw new PkiError("INVALID_CMS", "The SignerInfo has no signature");
  return new Uint8Array(signature.valueBlock.valueHexView);
}
