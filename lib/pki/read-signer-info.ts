import { parseDer, type DerNode } from "@/lib/pki/der-tree";
import { childrenOf, matchFields, octetStringContent } from "@/lib/pki/der-reading";
import { isIssuerAndSerialNumber, sequenceChildren, setChildren, signerInfoFields } from "@/lib/pki/cms-shapes";
import { oids } from "@/lib/pki/object-identifiers";

const SIGNING_CERTIFICATE_V1 = "1.2.840.113549.1.9.16.2.12";

/** An ESSCertID(v2) of a signing-certificate(-v2) attribute: the hash that binds the signer's certificate. */
export type CertificateBinding = { hashAlgorithmOid: string; hash: Uint8Array };

/** One attribute of a SignerInfo: its type and the elements of its SET of values. */
type Attribute = { type: string; values: DerNode[] };

/** The fields of one SignerInfo as read from the tree, before anything is taken out of its attributes. */
export type SignerInfoFields = {
  sid: DerNode;
  digestAlgorithmOid: string;
  signatureAlgorithmOid: string;
  /** The [0] signedAttrs block as encoded, when there is one. */
  signedAttributesBlock?: DerNode;
  signed: Attribute[];
  unsigned: Attribute[];
  signatureValue: Uint8Array;
};

const malformed = (what: string) => new Error(`malformed ${what}`);
const octets = (block: DerNode | undefined) => octetStringContent(block, "OCTET STRING", malformed);
const oidOf = (block: DerNode | undefined) => block!.oid!;
const algorithmOf = (block: DerNode | undefined) => oidOf(sequenceChildren(block)?.[0]);

function attributesOf(block: DerNode | undefined): Attribute[] {
  if (!block) return [];
  return childrenOf(block, "attributes", malformed).map((attribute) => {
    const [type, values] = sequenceChildren(attribute)!;
    return { type: oidOf(type), values: setChildren(values)! };
  });
}

/** Reads one SignerInfo whose shape the SignedData match has already checked (cms-shapes). */
export function readSignerInfoFields(block: DerNode): SignerInfoFields {
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
    signatureValue: new Uint8Array(signature!.content),
  };
}

/** How the SignerInfo names its certificate: issuer and serial number, or a subject key identifier. */
export function signerIdOf(sid: DerNode): { issuerDer: Uint8Array; serialHex: string } | { keyIdentifierHex: string } {
  if (isIssuerAndSerialNumber(sid)) {
    const [issuer, serial] = sequenceChildren(sid)!;
    // strict DER is its own encoding; what asn1js read from BER is encoded again, as pkijs did
    const issuerDer = issuer.asn1 ? new Uint8Array(issuer.asn1.toBER(false)) : new Uint8Array(issuer.bytes);
    return { issuerDer, serialHex: Buffer.from(serial.content).toString("hex") };
  }
  // [0] IMPLICIT SubjectKeyIdentifier; a constructed [0] never yielded an identifier
  if (sid.constructed) throw malformed("SignerIdentifier");
  return { keyIdentifierHex: Buffer.from(sid.content).toString("hex") };
}

/** The one value of a signed attribute that must appear at most once with one value; a repeat is a classic ambiguity. */
export function singleValue(attributes: Attribute[], type: string): DerNode | undefined {
  const found = attributes.filter((attribute) => attribute.type === type);
  if (found.length > 1 || (found[0] && found[0].values.length !== 1)) throw new Error(`attribute ${type} must appear once with one value`);
  return found[0]?.values[0];
}

/** Every value of every attribute of this type (unsigned time-stamps: a repeat is not ambiguous, each is verified). */
export function allValues(attributes: Attribute[], type: string): DerNode[] {
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
function firstElementOf(value: DerNode | undefined): DerNode | undefined {
  if (value?.kind === "octetString" && !value.constructed) {
    const contents = value.content;
    const inner = contents.length > 0 ? parseDer(contents) : undefined;
    return inner && inner.end === contents.length ? inner.node : undefined;
  }
  return value?.children[0];
}

/** signing-certificate-v2 (ESSCertIDv2, default SHA-256) or v1 (ESSCertID, SHA-1): the first cert ID names the signer. */
export function readCertificateBindings(signed: Attribute[]): CertificateBinding[] {
  const bindings: CertificateBinding[] = [];
  for (const attribute of signed) {
    if (attribute.type !== oids.signingCertificateV2Attribute && attribute.type !== SIGNING_CERTIFICATE_V1) continue;
    const certs = firstElementOf(attribute.values[0]);
    const first = certs?.kind === "sequence" ? certs.children[0] : undefined;
    if (first?.kind !== "sequence") throw new Error("malformed signing-certificate attribute");
    const [head, second] = first.children;
    if (attribute.type === SIGNING_CERTIFICATE_V1) {
      if (head?.kind !== "octetString") throw new Error("malformed ESSCertID");
      bindings.push({ hashAlgorithmOid: oids.sha1, hash: octets(head) });
      continue;
    }
    // ESSCertIDv2 ::= SEQUENCE { hashAlgorithm DEFAULT sha256, certHash, issuerSerial OPTIONAL }
    if (head?.kind === "octetString") bindings.push({ hashAlgorithmOid: oids.sha256, hash: octets(head) });
    else if (head?.kind === "sequence" && second?.kind === "octetString") {
      const algorithm = head.children[0];
      if (algorithm?.kind !== "oid") throw new Error("malformed ESSCertIDv2");
      bindings.push({ hashAlgorithmOid: algorithm.oid!, hash: octets(second) });
    } else throw new Error("malformed ESSCertIDv2");
  }
  return bindings;
}
