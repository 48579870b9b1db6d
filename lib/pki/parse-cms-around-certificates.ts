import * as asn1js from "asn1js";

/** An element found by its header alone: its first tag octet, where its contents start and where it ends. */
type Located = { at: number; tag: number; contentStart: number; end: number };

const SEQUENCE = 0x30;
const SET = 0x31;
const INTEGER = 0x02;
const OBJECT_IDENTIFIER = 0x06;
const CONTEXT_0_CONSTRUCTED = 0xa0;
const CONTEXT_0_PRIMITIVE = 0x80;
const OCTET_STRING = 0x04;
// the reader refuses more certificates than this; past it the whole parse (and its node limit) answers, as before
const MAX_CERTIFICATES = 64;

/**
 * The element at `at`, with asn1js reading only its header: the tag octet is set to a primitive
 * OCTET STRING for that parse (and put back), so asn1js takes the contents as opaque bytes. undefined
 * for anything but a short-form tag with a definite length ending within `limit`.
 */
function locate(work: Uint8Array, at: number, limit: number): Located | undefined {
  if (at >= limit) return undefined;
  const tag = work[at];
  if ((tag & 0x1f) === 0x1f) return undefined;
  work[at] = OCTET_STRING;
  try {
    const parsed = asn1js.fromBER(work.subarray(at, limit), { parseEmbedded: false });
    if (parsed.offset === -1 || parsed.result.error) return undefined;
    return { at, tag, contentStart: at + parsed.result.idBlock.blockLength + parsed.result.lenBlock.blockLength, end: at + parsed.offset };
  } finally {
    work[at] = tag;
  }
}

/** The [0] certificates field of ContentInfo { OID, [0] SignedData { version, digestAlgorithms, encapContentInfo, [0] ... } }. */
function locateCertificateField(work: Uint8Array): Located | undefined {
  const root = locate(work, 0, work.length);
  if (root?.tag !== SEQUENCE) return undefined;
  const contentType = locate(work, root.contentStart, root.end);
  if (contentType?.tag !== OBJECT_IDENTIFIER) return undefined;
  const content = locate(work, contentType.end, root.end);
  if (content?.tag !== CONTEXT_0_CONSTRUCTED) return undefined;
  const signedData = locate(work, content.contentStart, content.end);
  if (signedData?.tag !== SEQUENCE) return undefined;
  let next = signedData.contentStart;
  for (const tag of [INTEGER, SET, SEQUENCE]) {
    const field = locate(work, next, signedData.end);
    if (field?.tag !== tag) return undefined;
    next = field.end;
  }
  const certificates = locate(work, next, signedData.end);
  return certificates?.tag === CONTEXT_0_CONSTRUCTED ? certificates : undefined;
}

/** The certificates of the field, each a SEQUENCE with a definite length, tiling it exactly; else undefined. */
function certificatesIn(work: Uint8Array, field: Located): Uint8Array[] | undefined {
  const certificates: Uint8Array[] = [];
  for (let next = field.contentStart; next < field.end; ) {
    const certificate = locate(work, next, field.end);
    if (certificate?.tag !== SEQUENCE || certificates.length === MAX_CERTIFICATES) return undefined;
    certificates.push(work.slice(next, certificate.end));
    next = certificate.end;
  }
  return certificates;
}

export type CmsParse = {
  parsed: asn1js.FromBerResult;
  /** The certificates of the [0] field, left unparsed (the field is empty in the tree); undefined when the tree holds them. */
  certificatesDer?: Uint8Array[];
};

/**
 * Parses a CMS with asn1js once, leaving the SignedData's certificates unparsed when their encoding
 * allows it (definite lengths, each a universal SEQUENCE): every reader of them parses them again
 * (the verifier through its cached X.509 reader), and asn1js walking them was about half the parse of
 * our CMS. The field is then an empty [0] in the tree and `certificatesDer` holds their bytes in
 * order. Anything else (BER indefinite lengths, other certificate choices) is parsed whole.
 */
export function parseCmsAroundCertificates(bytes: Uint8Array): CmsParse {
  // a plain Uint8Array copy takes asn1js's fast paths; OCTET STRING contents are read where used, not parsed on speculation
  const work = new Uint8Array(bytes);
  const field = locateCertificateField(work);
  const certificatesDer = field && certificatesIn(work, field);
  if (!field || !certificatesDer) return { parsed: asn1js.fromBER(work, { parseEmbedded: false }) };
  work[field.at] = CONTEXT_0_PRIMITIVE;
  const parsed = asn1js.fromBER(work, { parseEmbedded: false });
  // the tree's byte views point into `work`: they show the field's tag as it was sent
  work[field.at] = CONTEXT_0_CONSTRUCTED;
  if (parsed.offset === -1 || parsed.result.error) return { parsed };
  const signedData = ((parsed.result as asn1js.Sequence).valueBlock.value[1] as asn1js.Constructed).valueBlock.value[0] as asn1js.Sequence;
  signedData.valueBlock.value[3] = new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: [] });
  return { parsed, certificatesDer };
}
