import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { readX509Certificate } from "@/lib/pki/x509-provider";

const SIGNED_DATA = "1.2.840.113549.1.7.2";
const MESSAGE_DIGEST = "1.2.840.113549.1.9.4";
const SIGNING_TIME = "1.2.840.113549.1.9.5";
const SIGNATURE_TIME_STAMP = "1.2.840.113549.1.9.16.2.14";

/** What a verifier needs from a PDF signature's CMS SignedData (first SignerInfo). */
export type SignatureCms = {
  /** The CMS alone, without the zero padding of /Contents. */
  der: Uint8Array;
  digestAlgorithmOid: string;
  messageDigest?: Uint8Array;
  encapsulatedContent?: Uint8Array;
  signingTime?: Date;
  signatureValue: Uint8Array;
  timeStampToken?: Uint8Array;
  certificatesDer: Uint8Array[];
  signerCertificateDer?: Uint8Array;
  signerCommonName?: string;
};

/** Parses the CMS in /Contents; throws (any error) when it is not a SignedData. */
export function readSignatureCms(contents: Uint8Array): SignatureCms {
  const parsed = asn1js.fromBER(new Uint8Array(contents));
  if (parsed.offset === -1 || parsed.result.error) throw new Error("the /Contents is not a CMS");
  const der = new Uint8Array(contents.subarray(0, parsed.offset));
  const contentInfo = new pkijs.ContentInfo({ schema: parsed.result });
  if (contentInfo.contentType !== SIGNED_DATA) throw new Error("the /Contents is not a CMS SignedData");
  const signedData = new pkijs.SignedData({ schema: contentInfo.content });
  const signerInfo = signedData.signerInfos[0];
  if (!signerInfo) throw new Error("the CMS has no SignerInfo");

  const certificates = (signedData.certificates ?? []).filter((item): item is pkijs.Certificate => item instanceof pkijs.Certificate);
  const certificatesDer = certificates.map((certificate) => new Uint8Array(certificate.toSchema().toBER(false)));
  const sid = signerInfo.sid instanceof pkijs.IssuerAndSerialNumber ? signerInfo.sid : undefined;
  const signerIndex = sid ? certificates.findIndex((c) => c.serialNumber.isEqual(sid.serialNumber) && c.issuer.isEqual(sid.issuer)) : -1;
  const signerCertificateDer = certificatesDer[signerIndex === -1 ? 0 : signerIndex];

  const signed = signerInfo.signedAttrs?.attributes ?? [];
  const unsigned = signerInfo.unsignedAttrs?.attributes ?? [];
  const value = (attributes: pkijs.Attribute[], type: string) => attributes.find((attribute) => attribute.type === type)?.values[0];
  const digest = value(signed, MESSAGE_DIGEST);
  const time = value(signed, SIGNING_TIME);
  const token = value(unsigned, SIGNATURE_TIME_STAMP);
  const eContent = signedData.encapContentInfo.eContent;

  return {
    der,
    digestAlgorithmOid: signerInfo.digestAlgorithm.algorithmId,
    messageDigest: digest instanceof asn1js.OctetString ? new Uint8Array(digest.getValue()) : undefined,
    encapsulatedContent: eContent instanceof asn1js.OctetString ? new Uint8Array(eContent.getValue()) : undefined,
    signingTime: time instanceof asn1js.UTCTime || time instanceof asn1js.GeneralizedTime ? time.toDate() : undefined,
    signatureValue: new Uint8Array(signerInfo.signature.valueBlock.valueHexView),
    timeStampToken: token instanceof asn1js.Sequence ? new Uint8Array(token.toBER(false)) : undefined,
    certificatesDer,
    signerCertificateDer,
    signerCommonName: signerCertificateDer ? commonName(signerCertificateDer) : undefined,
  };
}

function commonName(certificateDer: Uint8Array): string | undefined {
  try {
    return readX509Certificate(certificateDer).subjectName.getField("CN")[0];
  } catch {
    return undefined;
  }
}
