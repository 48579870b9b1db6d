import * as asn1js from "asn1js";
import { createHash, createPublicKey, verify } from "node:crypto";
import { der } from "@/lib/pki/der-encoder";
import { PkiError } from "@/lib/pki/errors";
import { oids } from "@/lib/pki/object-identifiers";
import { parseCertificateFields } from "@/lib/pki/parse-certificate-fields";
import { digestNames, hashOfSignature } from "@/lib/pki/signature-algorithms";

const invalid = (message: string) => new PkiError("INVALID_CMS", message);

function children(block: asn1js.AsnType | undefined, what: string): asn1js.AsnType[] {
  if (!(block instanceof asn1js.Constructed || block instanceof asn1js.Sequence || block instanceof asn1js.Set)) throw invalid(`Malformed ${what}`);
  return block.valueBlock.value;
}

function oidOf(algorithm: asn1js.AsnType | undefined, what: string): string {
  const [id] = children(algorithm, what);
  if (!(id instanceof asn1js.ObjectIdentifier)) throw invalid(`Malformed ${what}`);
  return id.valueBlock.toString();
}

function octets(block: asn1js.AsnType | undefined, what: string): Buffer {
  if (!(block instanceof asn1js.OctetString)) throw invalid(`Malformed ${what}`);
  if (!block.valueBlock.isConstructed) return Buffer.from(block.valueBlock.valueHexView);
  return Buffer.concat(block.valueBlock.value.map((part) => octets(part, what)));
}

const isContext = (block: asn1js.AsnType | undefined, tagNumber: number) =>
  block !== undefined && block.idBlock.tagClass === 3 && block.idBlock.tagNumber === tagNumber;

/**
 * Checks the first SignerInfo of a CMS SignedData: messageDigest against the content (embedded
 * eContent, or `detachedContent`) and the signature over the signed attributes, with a certificate
 * carried in the CMS. Returns that certificate. Does not judge trust: chains are the validator's job.
 */
export function verifyCmsSignature(cmsDer: Uint8Array, detachedContent?: Uint8Array): { signerCertificateDer: Uint8Array } {
  const parsed = asn1js.fromBER(cmsDer);
  if (parsed.result.error) throw invalid("The CMS is not valid DER");
  const [contentType, content] = children(parsed.result, "ContentInfo");
  if (!(contentType instanceof asn1js.ObjectIdentifier) || contentType.valueBlock.toString() !== oids.signedData) throw invalid("Not a SignedData");
  const signedData = children(children(content, "ContentInfo")[0], "SignedData");

  const [, eContent] = children(signedData[2], "encapContentInfo");
  const contentBytes = eContent ? octets(children(eContent, "eContent")[0], "eContent") : detachedContent;
  if (!contentBytes) throw invalid("Detached CMS needs the content to verify");
  const certificates = isContext(signedData[3], 0) ? children(signedData[3], "certificates").map((c) => new Uint8Array(c.valueBeforeDecodeView)) : [];

  const signerInfo = children(children(signedData.at(-1), "signerInfos")[0], "SignerInfo");
  const [, sid, digestAlgorithm, signedAttributes, signatureAlgorithm, signature] = signerInfo;
  if (!isContext(signedAttributes, 0)) throw invalid("The SignerInfo has no signed attributes");
  const digestName = digestNames[oidOf(digestAlgorithm, "digestAlgorithm")];
  if (!digestName) throw invalid("Unsupported digest algorithm");

  const messageDigest = children(signedAttributes, "signedAttrs")
    .map((attribute) => children(attribute, "attribute"))
    .find(([type]) => type instanceof asn1js.ObjectIdentifier && type.valueBlock.toString() === oids.messageDigestAttribute);
  if (!messageDigest) throw invalid("No messageDigest attribute");
  if (!octets(children(messageDigest[1], "messageDigest")[0], "messageDigest").equals(createHash(digestName).update(contentBytes).digest())) {
    throw invalid("messageDigest does not match the content");
  }

  const signatureOid = oidOf(signatureAlgorithm, "signatureAlgorithm");
  const hashName = hashOfSignature(signatureOid, oidOf(digestAlgorithm, "digestAlgorithm"));
  if (!hashName) throw invalid(`Unsupported signature algorithm ${signatureOid}`);
  // the signature covers the attributes re-tagged as a SET (RFC 5652 5.4)
  const signedBytes = Buffer.from(signedAttributes!.valueBeforeDecodeView);
  signedBytes[0] = 0x31;
  const signatureBytes = octets(signature, "signature");

  // try the certificate that sid names first; any other carried certificate can only fail
  const sidDer = Buffer.from(sid!.valueBeforeDecodeView);
  const named = (certificate: Uint8Array) => {
    const fields = parseCertificateFields(certificate);
    return sidDer.equals(der.sequence(fields.issuerDer, fields.serialNumberDer));
  };
  for (const certificate of [...certificates.filter(named), ...certificates.filter((c) => !named(c))]) {
    const key = createPublicKey({ key: Buffer.from(parseCertificateFields(certificate).subjectPublicKeyInfoDer), format: "der", type: "spki" });
    const options = key.asymmetricKeyType === "ec" ? { key, dsaEncoding: "der" as const } : key;
    if (verify(hashName, signedBytes, options, signatureBytes)) return { signerCertificateDer: certificate };
  }
  throw invalid(certificates.length ? "The signature does not verify" : "The CMS carries no signer certificate");
}
