import * as asn1js from "asn1js";
import { childrenOf, matchFields, octetStringContent } from "@/lib/pki/asn1-reading";
import { isIssuerAndSerialNumber, sequenceChildren, setChildren, signerInfoFields } from "@/lib/pki/cms-shapes";
import { oids } from "@/lib/pki/object-identifiers";

const SIGNING_CERTIFICATE_V1 = "1.2.840.113549.1.9.16.2.12";

/** An ESSCertID(v2) of a signing-certificate(-v2) attribute: the hash that binds the signer's certificate. */
export type CertificateBinding = { hashAlgorithmOid: string; hash: Uint8Array };

/** One attribute of a SignerInfo: its type and the elements of its SET of values. */
type Attribute = { type: string; values: asn1js.AsnType[] };

/** The fields of one SignerInfo as read from the tree, before anything is taken out of its attributes. */
export type SignerInfoFields = {
  sid: asn1js.AsnType;
  digestAlgorithmOid: string;
  signatureAlgorithmOid: string;
  /** The [0] signedAttrs block as encoded, when there is one. */
  signedAttributesBlock?: asn1js.AsnType;
  signed: Attribute[];
  unsigned: Attribute[];
  signatureValue: Uint8Array;
};

const malformed = (what: string) => new Error(`malformed ${what}`);
const octets = (block: unknown) => octetStringContent(block, "OCTET STRING", malformed);
const oidOf = (block: asn1js.AsnType | undefined) => (block as asn1js.ObjectIdentifier).valueBlock.toString();
const algorithmOf = (block: asn1js.AsnType | undefined) => oidOf(sequenceChildren(block)?.[0]);

function attributesOf(block: asn1js.AsnType | undefined): Attribute[] {
  if (!block) return [];
  return childrenOf(block, "attributes", malformed).map((attribute) => {
    const [type, values] = sequenceChildren(attribute)!;
    return { type: oidOf(type), values: setChildren(values)! };
  });
}

/** Reads one SignerInfo whose shape the SignedData match has already checked (cms-shapes). */
export function readSignerInfoFields(block: asn1js.AsnType): SignerInfoFields {
  const fields = matchFields(sequenceChildren(block) ?? [], signerInfoFields);
  if (!fields) throw malformed("SignerInfo");
  const [, sid, digestAlgorithm, signedAttributes, signatureAlgorithm, signature, unsignedAttributes] = fields;
  const signed = attributesOf(signedAttributes);
  // RFC 5652 5.3: signedAttrs, when present, holds at least one attribute (pkijs refused an empty one too)
  if (signedAttributes && signed.length === 0) throw new Error("the SignerInfo has an empty signedAttrs field");
  return {
    sid: sid!,
    digestAlgorithmOid: algorithmOf(digestAlgorithm),
    signatureAlgorithmOid: algorithmOf(signatureAlgorithm),
    signedAttributesBlock: signedAttributes,
    signed,
    unsigned: attributesOf(unsignedAttributes),
    signatureValue: new Uint8Array((signature as asn1js.OctetString).valueBlock.valueHexView),
  };
}

/** How the SignerInfo names its certificate: issuer and serial number, or a subject key identifier. */
export function signerIdOf(sid: asn1js.AsnType): { issuerDer: Uint8Array; serialHex: string } | { keyIdentifierHex: string } {
  if (isIssuerAndSerialNumber(sid)) {
    const [issuer, serial] = sequenceChildren(sid)!;
    return { issuerDer: new Uint8Array(issuer.toBER(false)), serialHex: Buffer.from((serial as asn1js.Integer).valueBlock.valueHexView).toString("hex") };
  }
  // [0] IMPLICIT SubjectKeyIdentifier; a constructed [0] never yielded an identifier
  if (sid.idBlock.isConstructed) throw malformed("SignerIdentifier");
  return { keyIdentifierHex: Buffer.from((sid as asn1js.Primitive).valueBlock.valueHexView).toString("hex") };
}

/** The one value of a signed attribute that must appear at most once with one value; a repeat is a classic ambiguity. */
export function singleValue(attributes: Attribute[], type: string): asn1js.AsnType | undefined {
  const found = attributes.filter((attribute) => attribute.type === type);
  if (found.length > 1 || (found[0] && found[0].values.length !== 1)) throw new Error(`attribute ${type} must appear once with one value`);
  return found[0]?.values[0];
}

/** Every value of every attribute of this type (unsigned time-stamps: a repeat is not ambiguous, each is verified). */
export function allValues(attributes: Attribute[], type: string): asn1js.AsnType[] {
  return attributes
    .filter((attribute) => attribute.type === type)
    .flatMap((attribute) => {
      if (attribute.values.length === 0) throw new Error(`attribute ${type} has no value`);
      return attribute.values;
    });
}

/**
 * Some signers wrap the SigningCertificate(V2) value in an OCTET STRING. asn1js used to parse every
 * OCTET STRING's contents on speculation, so the former reader looked through such a wrapper and
 * accepted the attribute; the contents are now parsed here, where that reading depended on it.
 */
function firstElementOf(value: asn1js.AsnType | undefined): asn1js.AsnType | undefined {
  if (value instanceof asn1js.OctetString && !value.valueBlock.isConstructed) {
    const contents = value.valueBlock.valueHexView;
    const inner = contents.length > 0 ? asn1js.fromBER(new Uint8Array(contents), { parseEmbedded: false }) : undefined;
    return inner && inner.offset !== -1 && inner.offset === contents.length ? inner.result : undefined;
  }
  return (value as asn1js.Sequence | undefined)?.valueBlock.value[0];
}

/** signing-certificate-v2 (ESSCertIDv2, default SHA-256) or v1 (ESSCertID, SHA-1): the first cert ID names the signer. */
export function readCertificateBindings(signed: Attribute[]): CertificateBinding[] {
  const bindings: CertificateBinding[] = [];
  for (const attribute of signed) {
    if (attribute.type !== oids.signingCertificateV2Attribute && attribute.type !== SIGNING_CERTIFICATE_V1) continue;
    const certs = firstElementOf(attribute.values[0]);
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
