// The CMS reader as it was before it walked the tree by hand (pkijs schema objects), kept for tests only:
// the differential test (lib/verification/read-signed-data-differential.test.ts) checks that the reader refuses and reads exactly as this did.
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { isContextTag, octetStringContent } from "@/lib/pki/asn1-reading";
import { oids } from "@/lib/pki/object-identifiers";
import { fromAsn1js } from "@/lib/pki/der-tree";
import { readRevocationArchival, type CertificateBinding, type SignedDataReading, type SignedDataReadingOptions } from "@/lib/pki/read-signed-data";

const SIGNING_CERTIFICATE_V1 = "1.2.840.113549.1.9.16.2.12";
const MAX_CERTIFICATES = 64;
// real signers sometimes add a second SignerInfo (a co-signature, a leftover); more than this is not a document signature
const MAX_SIGNER_INFOS = 4;
const MAX_TIME_STAMP_TOKENS = 4;

const malformed = (what: string) => new Error(`malformed ${what}`);
const octets = (block: unknown) => octetStringContent(block, "OCTET STRING", malformed);

/** The former reader: parses a CMS ContentInfo holding a SignedData (SignerInfo `signerIndex`); throws an Error naming what is wrong. */
export function readSignedDataWithPkijs(bytes: Uint8Array, options: SignedDataReadingOptions = {}): SignedDataReading {
  const { signerIndex = 0, readCertificate } = options;
  const parsed = asn1js.fromBER(new Uint8Array(bytes));
  if (parsed.offset === -1 || parsed.result.error) throw new Error("not a CMS structure");
  const der = new Uint8Array(bytes.subarray(0, parsed.offset));
  const contentInfo = new pkijs.ContentInfo({ schema: parsed.result });
  if (contentInfo.contentType !== oids.signedData) throw new Error("not a CMS SignedData");
  const certificatesDer = takeCertificates(contentInfo.content, readCertificate);
  const signedData = new pkijs.SignedData({ schema: contentInfo.content });
  const signerCount = signedData.signerInfos.length;
  if (signerCount === 0 || signerCount > MAX_SIGNER_INFOS) throw new Error(`the CMS has ${signerCount} SignerInfos`);
  const signerInfo = signedData.signerInfos[signerIndex];
  if (!signerInfo) throw new Error(`the CMS has no SignerInfo ${signerIndex}`);

  const crls = (signedData.crls ?? []).filter((item): item is pkijs.CertificateRevocationList => item instanceof pkijs.CertificateRevocationList);

  const signed = signerInfo.signedAttrs?.attributes ?? [];
  const unsigned = signerInfo.unsignedAttrs?.attributes ?? [];
  const single = (attributes: pkijs.Attribute[], type: string) => {
    const found = attributes.filter((attribute) => attribute.type === type);
    // a repeated attribute or a multi-valued one is a classic ambiguity; refuse it
    if (found.length > 1 || (found[0] && found[0].values.length !== 1)) throw new Error(`attribute ${type} must appear once with one value`);
    return found[0]?.values[0];
  };
  const contentType = single(signed, oids.contentTypeAttribute);
  const digest = single(signed, oids.messageDigestAttribute);
  const time = single(signed, oids.signingTimeAttribute);
  // unsigned: a repeated time-stamp is not ambiguous, each token is verified on its own
  const tokens = unsigned.filter((attribute) => attribute.type === oids.signatureTimeStampTokenAttribute).flatMap((attribute) => attribute.values);
  if (tokens.length > MAX_TIME_STAMP_TOKENS) throw new Error("too many signature time-stamp tokens");
  const tokensDer = tokens.map((token) => {
    if (!(token instanceof asn1js.Sequence)) throw new Error("a signature time-stamp token is not a SEQUENCE");
    // as sent, as the reader takes them now: re-encoding a malformed token gave other bytes than the signer's
    return new Uint8Array(token.valueBeforeDecodeView);
  });
  const eContent = signedData.encapContentInfo.eContent;

  let signedAttributesDer: Uint8Array | undefined;
  if (signerInfo.signedAttrs) {
    signedAttributesDer = new Uint8Array(signerInfo.signedAttrs.encodedValue);
    // pkijs keeps the [0] IMPLICIT encoding; the signature covers the universal SET tag
    signedAttributesDer[0] = 0x31;
  }

  const sid = signerInfo.sid;
  const signerId =
    sid instanceof pkijs.IssuerAndSerialNumber
      ? { issuerDer: new Uint8Array(sid.issuer.toSchema().toBER(false)), serialHex: Buffer.from(sid.serialNumber.valueBlock.valueHexView).toString("hex") }
      : { keyIdentifierHex: Buffer.from((sid as asn1js.OctetString).valueBlock.valueHexView).toString("hex") };

  return {
    der,
    eContentTypeOid: signedData.encapContentInfo.eContentType,
    encapsulatedContent: eContent instanceof asn1js.OctetString ? octets(eContent) : undefined,
    digestAlgorithmOid: signerInfo.digestAlgorithm.algorithmId,
    signatureAlgorithmOid: signerInfo.signatureAlgorithm.algorithmId,
    signedAttributesDer,
    contentTypeAttribute: contentType instanceof asn1js.ObjectIdentifier ? contentType.valueBlock.toString() : undefined,
    messageDigest: digest instanceof asn1js.OctetString ? octets(digest) : undefined,
    signingTime: time instanceof asn1js.UTCTime || time instanceof asn1js.GeneralizedTime ? time.toDate() : undefined,
    certificateBindings: readCertificateBindings(signed),
    signatureValue: new Uint8Array(signerInfo.signature.valueBlock.valueHexView),
    timeStampTokenDer: tokensDer[0],
    timeStampTokensDer: tokensDer,
    signerCount,
    signerIndex,
    certificatesDer,
    crlsDer: crls.map((crl) => new Uint8Array(crl.toSchema().toBER(false))),
    // pkijs has no reader for Adobe's attribute: the production reader's own walk, over pkijs's attribute values
    ...(({ crls: archivedCrlsDer, ocsps: archivedOcspsDer }) => ({ archivedCrlsDer, archivedOcspsDer }))(readRevocationArchival((signerInfo.signedAttrs?.attributes ?? []).filter((attribute) => attribute.type === "1.2.840.113583.1.1.8").flatMap((attribute) => attribute.values.map(fromAsn1js)))),
    signerId,
  };
}

/**
 * Takes the certificates (the universal-class choice of CertificateChoices) out of the SignedData's
 * [0] field, as their own bytes, before pkijs reads the rest: pkijs matched each against the
 * Certificate schema three times and encoded it again, half the cost of reading a CMS, and the
 * verifier reads every certificate with @peculiar/x509 anyway. Given `readCertificate`, each must read
 * as a certificate there, else the CMS is unreadable; the tagged choices (attribute certificates, other formats)
 * stay for pkijs to check and are not used.
 */
function takeCertificates(signedData: unknown, readCertificate: ((der: Uint8Array) => unknown) | undefined): Uint8Array[] {
  if (!(signedData instanceof asn1js.Sequence)) return [];
  const field = signedData.valueBlock.value.find((block) => isContextTag(block, 0));
  if (!(field instanceof asn1js.Constructed)) return [];
  const certificates = field.valueBlock.value.filter((block) => block.idBlock.tagClass === 1);
  if (certificates.length > MAX_CERTIFICATES) throw new Error("the CMS carries too many certificates");
  const certificatesDer = certificates.map((block) => {
    if (!(block instanceof asn1js.Sequence)) throw new Error("the CMS carries a certificate that is not a SEQUENCE");
    const der = new Uint8Array(block.valueBeforeDecodeView);
    try {
      readCertificate?.(der);
    } catch {
      throw new Error("the CMS carries an unreadable certificate");
    }
    return der;
  });
  field.valueBlock.value = field.valueBlock.value.filter((block) => block.idBlock.tagClass !== 1);
  // an empty [0] SET would be a different (odd) encoding to pkijs: without it the field is simply absent
  if (field.valueBlock.value.length === 0) signedData.valueBlock.value = signedData.valueBlock.value.filter((block) => block !== field);
  return certificatesDer;
}

/** signing-certificate-v2 (ESSCertIDv2, default SHA-256) or v1 (ESSCertID, SHA-1): the first cert ID names the signer. */
function readCertificateBindings(signed: pkijs.Attribute[]): CertificateBinding[] {
  const bindings: CertificateBinding[] = [];
  for (const attribute of signed) {
    if (attribute.type !== oids.signingCertificateV2Attribute && attribute.type !== SIGNING_CERTIFICATE_V1) continue;
    const certs = (attribute.values[0] as asn1js.Sequence | undefined)?.valueBlock.value[0];
    const first = certs instanceof asn1js.Sequence ? certs.valueBlock.value[0] : undefined;
    if (!(first instanceof asn1js.Sequence)) throw new Error("malformed signing-certificate attribute");
    const [head, second] = first.valueBlock.value;
    if (attribute.type === SIGNING_CERTIFICATE_V1) {
      if (!(head instanceof asn1js.OctetString)) throw new Error("malformed ESSCertID");
      bindings.push({ hashAlgorithmOid: oids.sha1, hash: octets(head) });
      continue;
    }
    // ESSCertIDv2 ::= SEQUENCE { hashAlgorithm DEFAULT sha256, certHash, issuerSerial OPTIONAL }
    if (head instanceof asn1js.OctetString) bindings.push({ hashAlgorithmOid: oids.sha256, hash: octets(head) });
    else if (head instanceof asn1js.Sequence && second instanceof asn1js.OctetString) {
      const algorithm = head.valueBlock.value[0];
      if (!(algorithm instanceof asn1js.ObjectIdentifier)) throw new Error("malformed ESSCertIDv2");
      bindings.push({ hashAlgorithmOid: algorithm.valueBlock.toString(), hash: octets(second) });
    } else throw new Error("malformed ESSCertIDv2");
  }
  return bindings;
}
export function readTstInfoWithPkijs(token: SignedDataReading) {
  if (token.eContentTypeOid !== oids.tstInfo || !token.encapsulatedContent) throw new Error("the token does not hold a TSTInfo");
  const tstInfo = pkijs.TSTInfo.fromBER(new Uint8Array(token.encapsulatedContent));
  const serialHex = Buffer.from(tstInfo.serialNumber.valueBlock.valueHexView).toString("hex");
  return {
    policyOid: tstInfo.policy,
    hashAlgorithmOid: tstInfo.messageImprint.hashAlgorithm.algorithmId,
    imprint: new Uint8Array(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView),
    serialNumber: BigInt(`0x${serialHex || "0"}`),
    serialHex,
    genTime: tstInfo.genTime,
    nonceContentDer: tstInfo.nonce ? new Uint8Array(tstInfo.nonce.valueBlock.valueHexView) : undefined,
  };
}
