import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { childrenOf, matchFields, octetStringContent } from "@/lib/pki/der-reading";
import { asAsn1js, fromAsn1js, readStrictDer, type DerNode } from "@/lib/pki/der-tree";
import { parseCmsAroundCertificates } from "@/lib/pki/parse-cms-around-certificates";
import { contentInfoFields, isObjectIdentifier, sequenceChildren, signedDataFields } from "@/lib/pki/cms-shapes";
import { allValues, readCertificateBindings, readSignerInfoFields, signerIdOf, singleValue, type CertificateBinding } from "@/lib/pki/read-signer-info";
import { oids } from "@/lib/pki/object-identifiers";

const MAX_CERTIFICATES = 64;
// real signers sometimes add a second SignerInfo (a co-signature, a leftover); more than this is not a document signature
const MAX_SIGNER_INFOS = 4;
const MAX_TIME_STAMP_TOKENS = 4;
const ADBE_REVOCATION_INFO_ARCHIVAL = "1.2.840.113583.1.1.8";
const MAX_ARCHIVED_ITEMS = 64;

export type { CertificateBinding };

/**
 * Everything a reader needs from one CMS SignedData (a PDF signature, a signature time-stamp, a
 * document time-stamp, a TSA's token, our own CMS). This is the only CMS reader: the verify path,
 * `verifyCmsSignature` and the TSA response reader all go through it.
 */
export type SignedDataReading = {
  /** The CMS alone, without the zero padding of /Contents. */
  der: Uint8Array;
  eContentTypeOid: string;
  encapsulatedContent?: Uint8Array;
  digestAlgorithmOid: string;
  signatureAlgorithmOid: string;
  /** The signed attributes re-tagged as a SET: the bytes the signature covers (RFC 5652 5.4). */
  signedAttributesDer?: Uint8Array;
  contentTypeAttribute?: string;
  messageDigest?: Uint8Array;
  signingTime?: Date;
  certificateBindings: CertificateBinding[];
  signatureValue: Uint8Array;
  timeStampTokenDer?: Uint8Array;
  /** Every signature time-stamp token (some signers embed the same one twice); each must verify. */
  timeStampTokensDer: Uint8Array[];
  /** SignerInfos in the CMS; `signerIndex` says which one this reading describes. */
  signerCount: number;
  signerIndex: number;
  certificatesDer: Uint8Array[];
  crlsDer: Uint8Array[];
  /** Revocation data Adobe's signers put in the signed attributes (adbe-revocationInfoArchival, 1.2.840.113583.1.1.8). */
  archivedCrlsDer: Uint8Array[];
  archivedOcspsDer: Uint8Array[];
  /** How the SignerInfo names its certificate. */
  signerId: { issuerDer: Uint8Array; serialHex: string } | { keyIdentifierHex: string };
};

export type SignedDataReadingOptions = {
  /** Which SignerInfo to describe (0, the first, by default). */
  signerIndex?: number;
  /**
   * Reads each carried certificate, throwing when one is not a certificate (the verifier passes its
   * cached X.509 reader). Without it the certificates are taken as they are: their users parse them.
   */
  readCertificate?: (der: Uint8Array) => unknown;
};

const malformed = (what: string) => new Error(`malformed ${what}`);
const octets = (block: DerNode | undefined) => octetStringContent(block, "OCTET STRING", malformed);

/**
 * Parses a CMS ContentInfo holding a SignedData (SignerInfo `signerIndex`); throws an Error naming what
 * is wrong. The bytes are parsed once and the tree is walked by hand (cms-shapes): building pkijs
 * objects with their schema matching for every block cost about four times the parse itself. Strict
 * DER (our own CMSes, most others) is read directly; anything else by asn1js, as before (der-tree.ts).
 */
export function readSignedData(bytes: Uint8Array, options: SignedDataReadingOptions = {}): SignedDataReading {
  // a copy: the tree's views must not change with the caller's buffer
  const own = new Uint8Array(bytes);
  const strict = readStrictDer(own);
  if (strict) return readContentInfo(strict.node, own.slice(0, strict.end), undefined, options);
  const { parsed, certificatesDer: unparsedCertificates } = parseCmsAroundCertificates(bytes);
  if (parsed.offset === -1 || parsed.result.error) throw new Error("not a CMS structure");
  return readContentInfo(fromAsn1js(parsed.result), new Uint8Array(bytes.subarray(0, parsed.offset)), unparsedCertificates, options);
}

/** The trees of a reading's signature time-stamp tokens, parsed with its CMS: a token is read from them, not parsed again. */
const tokenTrees = new WeakMap<SignedDataReading, DerNode[]>();

/**
 * Signature time-stamp token `index` of a CMS reading, read as readSignedData reads its bytes
 * (`timeStampTokensDer[index]`) but from the tree parsed with the CMS, not parsed a second time.
 * Throws as readSignedData throws on those bytes.
 */
export function readTimeStampToken(cms: SignedDataReading, index: number, options: SignedDataReadingOptions = {}): SignedDataReading {
  const tokenDer = cms.timeStampTokensDer[index];
  if (!tokenDer) throw new Error(`the CMS has no time-stamp token ${index}`);
  const tree = tokenTrees.get(cms)?.[index];
  return tree ? readContentInfo(tree, new Uint8Array(tokenDer), undefined, options) : readSignedData(tokenDer, options);
}

function readContentInfo(root: DerNode, der: Uint8Array, unparsedCertificates: Uint8Array[] | undefined, options: SignedDataReadingOptions): SignedDataReading {
  const { signerIndex = 0, readCertificate } = options;
  const contentInfo = fieldsOf(root, contentInfoFields, "ContentInfo");
  if (!isObjectIdentifier(contentInfo[0]) || oidOf(contentInfo[0]) !== oids.signedData) throw new Error("not a CMS SignedData");
  const signedData = fieldsOf(childrenOf(contentInfo[1], "ContentInfo", malformed)[0], signedDataFields, "SignedData");
  const [, , encapsulated, certificateField, crlField, signerInfoSet] = signedData;
  const certificatesDer = unparsedCertificates ? checkCertificates(unparsedCertificates, readCertificate) : takeCertificates(certificateField, readCertificate);
  const crlsDer = takeCrls(crlField);

  const signerInfos = childrenOf(signerInfoSet, "SignerInfos", malformed);
  const signerCount = signerInfos.length;
  if (signerCount === 0 || signerCount > MAX_SIGNER_INFOS) throw new Error(`the CMS has ${signerCount} SignerInfos`);
  // every SignerInfo is read, as pkijs did: a broken one makes the whole CMS unreadable
  const signerInfo = signerInfos.map(readSignerInfoFields)[signerIndex];
  if (!signerInfo) throw new Error(`the CMS has no SignerInfo ${signerIndex}`);

  const contentType = singleValue(signerInfo.signed, oids.contentTypeAttribute);
  const digest = singleValue(signerInfo.signed, oids.messageDigestAttribute);
  const time = singleValue(signerInfo.signed, oids.signingTimeAttribute);
  const archived = readRevocationArchival(signerInfo.signed.filter((attribute) => attribute.type === ADBE_REVOCATION_INFO_ARCHIVAL).flatMap((attribute) => attribute.values));
  const tokens = allValues(signerInfo.unsigned, oids.signatureTimeStampTokenAttribute);
  if (tokens.length > MAX_TIME_STAMP_TOKENS) throw new Error("too many signature time-stamp tokens");
  for (const token of tokens) if (token.kind !== "sequence") throw new Error("a signature time-stamp token is not a SEQUENCE");
  // each token as it was sent, not re-encoded (toBER walked every element again)
  const tokensDer = tokens.map((token) => new Uint8Array(token.bytes));
  const [eContentType, eContentField] = sequenceChildren(encapsulated)!;
  const eContent = eContentField && childrenOf(eContentField, "eContent", malformed)[0];

  let signedAttributesDer: Uint8Array | undefined;
  if (signerInfo.signedAttributesBlock) {
    signedAttributesDer = new Uint8Array(signerInfo.signedAttributesBlock.bytes);
    // the field is encoded [0] IMPLICIT; the signature covers the universal SET tag (RFC 5652 5.4)
    signedAttributesDer[0] = 0x31;
  }

  const reading: SignedDataReading = {
    der,
    eContentTypeOid: oidOf(eContentType),
    encapsulatedContent: eContent?.kind === "octetString" ? octets(eContent) : undefined,
    digestAlgorithmOid: signerInfo.digestAlgorithmOid,
    signatureAlgorithmOid: signerInfo.signatureAlgorithmOid,
    signedAttributesDer,
    contentTypeAttribute: contentType?.kind === "oid" ? contentType.oid : undefined,
    messageDigest: digest?.kind === "octetString" ? octets(digest) : undefined,
    signingTime: time?.time,
    certificateBindings: readCertificateBindings(signerInfo.signed),
    signatureValue: signerInfo.signatureValue,
    timeStampTokenDer: tokensDer[0],
    timeStampTokensDer: tokensDer,
    signerCount,
    signerIndex,
    certificatesDer,
    crlsDer,
    archivedCrlsDer: archived.crls,
    archivedOcspsDer: archived.ocsps,
    signerId: signerIdOf(signerInfo.sid),
  };
  if (tokens.length > 0) tokenTrees.set(reading, tokens);
  return reading;
}

const oidOf = (block: DerNode | undefined) => block!.oid!;

function fieldsOf(block: DerNode | undefined, rules: Parameters<typeof matchFields>[1], what: string) {
  const children = sequenceChildren(block);
  const fields = children && matchFields(children, rules);
  if (!fields) throw malformed(what);
  return fields;
}

/**
 * The certificates (the universal-class choice of CertificateChoices) of the SignedData's [0] field, as
 * their own bytes: the verifier reads every certificate with @peculiar/x509 anyway. The tagged
 * choices (attribute certificates, other formats) are not used; pkijs still checks their shape.
 */
function takeCertificates(field: DerNode | undefined, readCertificate: ((der: Uint8Array) => unknown) | undefined): Uint8Array[] {
  if (!field) return [];
  const choices = childrenOf(field, "certificates", malformed);
  const certificates = choices.filter((block) => block.tagClass === 1);
  if (certificates.length > MAX_CERTIFICATES) throw new Error("the CMS carries too many certificates");
  const certificatesDer = certificates.map((block) => {
    if (block.kind !== "sequence") throw new Error("the CMS carries a certificate that is not a SEQUENCE");
    return new Uint8Array(block.bytes);
  });
  const others = choices.filter((block) => block.tagClass !== 1);
  if (others.length > 0) {
    try {
      new pkijs.CertificateSet({ schema: new asn1js.Set({ value: others.map(asAsn1js) }) });
    } catch {
      throw new Error("the CMS carries a malformed certificate choice");
    }
  }
  // parsed with the rest of the tree
  return checkCertificates(certificatesDer, readCertificate, { parsed: true });
}

/**
 * Given `readCertificate`, each certificate must read as one there, else the CMS is unreadable.
 * Without it, a certificate that asn1js has not parsed with the tree must at least parse.
 */
function checkCertificates(certificatesDer: Uint8Array[], readCertificate: ((der: Uint8Array) => unknown) | undefined, { parsed = false } = {}): Uint8Array[] {
  if (certificatesDer.length > MAX_CERTIFICATES) throw new Error("the CMS carries too many certificates");
  for (const der of certificatesDer) {
    let readable = true;
    try {
      if (readCertificate) readCertificate(der);
      else if (!parsed) {
        const certificate = asn1js.fromBER(der, { parseEmbedded: false });
        readable = certificate.offset === der.length && !certificate.result.error;
      }
    } catch {
      readable = false;
    }
    if (!readable) throw new Error("the CMS carries an unreadable certificate");
  }
  return certificatesDer;
}

/**
 * The CRLs of the SignedData's [1] field (RevocationInfoChoices), read and encoded by pkijs as before:
 * our CMSes carry none, so this is off the signing path. Other revocation formats must have their
 * shape ([1] { OID, ANY }) and are not used.
 */
function takeCrls(field: DerNode | undefined): Uint8Array[] {
  if (!field) return [];
  return childrenOf(field, "crls", malformed).flatMap((choice) => {
    if (choice.tagClass === 1) {
      let crl: pkijs.CertificateRevocationList;
      try {
        crl = new pkijs.CertificateRevocationList({ schema: asAsn1js(choice) });
      } catch {
        throw new Error("the CMS carries an unreadable CRL");
      }
      return [new Uint8Array(crl.toSchema().toBER(false))];
    }
    const other = choice.tagClass === 3 && choice.tagNumber === 1 && !choice.longTag ? childrenOf(choice, "crls", malformed) : undefined;
    if (!other || !isObjectIdentifier(other[0]) || other[1] === undefined) throw new Error("the CMS carries a malformed revocation choice");
    return [];
  });
}

/**
 * RevocationInfoArchival ::= SEQUENCE { crl [0] EXPLICIT SEQUENCE OF CRL, ocsp [1] EXPLICIT SEQUENCE OF
 * OCSPResponse, otherRevInfo [2] ... } (Adobe's PDF reference, 12.8.3.3). Revocation data, not part of
 * the CMS's structure: an entry we cannot read is skipped, never a reason to call the CMS unreadable.
 */
export function readRevocationArchival(values: DerNode[]): { crls: Uint8Array[]; ocsps: Uint8Array[] } {
  const found = { crls: [] as Uint8Array[], ocsps: [] as Uint8Array[] };
  for (const value of values) {
    for (const tagged of sequenceChildren(value) ?? []) {
      if (tagged.tagClass !== 3 || tagged.tagNumber > 1) continue;
      const into = tagged.tagNumber === 0 ? found.crls : found.ocsps;
      const list = tagged.children[0];
      for (const item of sequenceChildren(list) ?? []) {
        if (into.length >= MAX_ARCHIVED_ITEMS) break;
        if (item.kind === "sequence") into.push(new Uint8Array(item.bytes));
      }
    }
  }
  return found;
}
