import * as asn1js from "asn1js";

/**
 * One element of a parsed CMS, TSTInfo or attribute value, as the hand-written readers walk it. It
 * comes from either parser: the strict DER reader below (our own outputs and most others), or asn1js
 * (anything the strict reader does not take), adapted by `fromAsn1js`. Either way it says what asn1js
 * would have said of the same bytes: the readers were checked against the pkijs reader on asn1js's trees.
 */
export type DerNode = {
  /** asn1js's numbering: 1 universal, 2 application, 3 context-specific, 4 private. */
  tagClass: number;
  tagNumber: number;
  constructed: boolean;
  /** A tag in the long (multi-octet) form, which asn1js keeps as hex only. */
  longTag: boolean;
  /** The asn1js type the element is read as (only the ones the readers ask about). */
  kind: "sequence" | "set" | "constructed" | "octetString" | "integer" | "oid" | "utcTime" | "generalizedTime" | "other";
  /** The whole element as it was sent. */
  bytes: Uint8Array;
  /** A primitive element's contents (an INTEGER's octets, an OCTET STRING's, a tagged field's). */
  content: Uint8Array;
  /** A constructed element's elements. */
  children: DerNode[];
  /** An OBJECT IDENTIFIER in dotted form, as asn1js prints it. */
  oid?: string;
  /** A UTCTime or GeneralizedTime, as asn1js reads it. */
  time?: Date;
  /** The asn1js element, when asn1js parsed it (for the pkijs readers of rare fields and for re-encoding). */
  asn1?: asn1js.AsnType;
};

// asn1js's own limits, so the strict reader never takes a tree asn1js would refuse for its size
const MAX_DEPTH = 100;
const MAX_NODES = 10_000;
const MAX_CONTENT_LENGTH = 16 * 1024 * 1024;
// subidentifiers that a double holds exactly
const MAX_SID_OCTETS = 7;

/** Thrown inside the strict reader for anything it leaves to asn1js; never escapes it. */
class NotStrictDer extends Error {}
const notStrict = new NotStrictDer();

const DIGITS = /^\d+$/;
const fatalUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The element at the start of `bytes` and where it ends, or undefined when the bytes are anything
 * but strict DER of the forms asn1js reads without a question: one-octet tags, minimal definite
 * lengths, SEQUENCE and SET constructed and every other universal type primitive, and leaf values
 * that asn1js decodes without an error or a guess (OIDs, times, ASCII and UTF-8 strings). Whatever
 * it leaves is parsed by asn1js as before, so this is a faster path to the same tree, never a
 * different judgment: asn1js took 1.4 ms for a 580-byte certificate, this takes microseconds.
 */
export function readStrictDer(bytes: Uint8Array): { node: DerNode; end: number } | undefined {
  const state = { nodes: 0 };
  try {
    const node = readElement(bytes, 0, bytes.length, 0, state);
    return { node, end: node.bytes.length };
  } catch (error) {
    if (error instanceof NotStrictDer) return undefined;
    throw error;
  }
}

function readElement(bytes: Uint8Array, at: number, limit: number, depth: number, state: { nodes: number }): DerNode {
  if (depth > MAX_DEPTH || ++state.nodes > MAX_NODES || at + 2 > limit) throw notStrict;
  const tag = bytes[at];
  const tagNumber = tag & 0x1f;
  if (tagNumber === 0x1f) throw notStrict;
  const tagClass = (tag >> 6) + 1;
  const constructed = (tag & 0x20) !== 0;
  let length = bytes[at + 1];
  let contentStart = at + 2;
  if (length & 0x80) {
    const octets = length & 0x7f;
    if (octets === 0 || octets > 4 || contentStart + octets > limit || bytes[contentStart] === 0) throw notStrict;
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + bytes[contentStart + i];
    if (length < 0x80 || length > MAX_CONTENT_LENGTH) throw notStrict;
    contentStart += octets;
  }
  const end = contentStart + length;
  if (end > limit) throw notStrict;
  const node: DerNode = { tagClass, tagNumber, constructed, longTag: false, kind: "other", bytes: bytes.subarray(at, end), content: bytes.subarray(contentStart, end), children: [] };
  if (tagClass === 1) {
    if (constructed !== (tagNumber === 16 || tagNumber === 17)) throw notStrict;
    if (!constructed) readUniversalValue(node, tagNumber);
    else node.kind = tagNumber === 16 ? "sequence" : "set";
  } else if (constructed) node.kind = "constructed";
  if (constructed) {
    for (let next = contentStart; next < end; ) {
      const child = readElement(bytes, next, end, depth + 1, state);
      node.children.push(child);
      next += child.bytes.length;
    }
  }
  return node;
}

function readUniversalValue(node: DerNode, tagNumber: number): void {
  const content = node.content;
  switch (tagNumber) {
    case 1: // BOOLEAN
      if (content.length !== 1) throw notStrict;
      return;
    case 2: // INTEGER
      if (content.length === 0) throw notStrict;
      node.kind = "integer";
      return;
    case 3: // BIT STRING: the unused-bits octet, and no unused bits in an empty string
      if (content.length === 0 || content[0] > 7 || (content.length === 1 && content[0] !== 0)) throw notStrict;
      return;
    case 4:
      node.kind = "octetString";
      return;
    case 5: // NULL
      if (content.length !== 0) throw notStrict;
      return;
    case 6:
      node.kind = "oid";
      node.oid = dottedOid(content);
      return;
    case 12: // UTF8String
      try {
        fatalUtf8.decode(content);
      } catch {
        throw notStrict;
      }
      return;
    case 19: // PrintableString
    case 22: // IA5String
      for (const octet of content) if (octet >= 0x80) throw notStrict;
      return;
    case 23:
      node.kind = "utcTime";
      node.time = utcTime(content);
      return;
    case 24:
      node.kind = "generalizedTime";
      node.time = generalizedTime(content);
      return;
    default:
      throw notStrict;
  }
}

/** The OID as asn1js prints it (the first subidentifier split into two arcs), for subidentifiers it decodes exactly. */
function dottedOid(content: Uint8Array): string {
  if (content.length === 0 || content[content.length - 1] & 0x80) throw notStrict;
  const arcs: number[] = [];
  let value = 0;
  let octets = 0;
  for (const octet of content) {
    value = value * 128 + (octet & 0x7f);
    if (++octets > MAX_SID_OCTETS) throw notStrict;
    if (octet & 0x80) continue;
    arcs.push(value);
    value = 0;
    octets = 0;
  }
  const first = arcs[0];
  const head = first <= 39 ? `0.${first}` : first <= 79 ? `1.${first - 40}` : `2.${first - 80}`;
  return [head, ...arcs.slice(1)].join(".");
}

const MAX_TIME_OCTETS = 32;
const ascii = (content: Uint8Array) => String.fromCharCode(...content);

/** YYMMDDhhmmssZ only, read as asn1js reads it (years 50-99 in the 1900s). */
function utcTime(content: Uint8Array): Date {
  if (content.length !== 13) throw notStrict;
  const text = ascii(content);
  if (text[12] !== "Z" || !DIGITS.test(text.slice(0, 12))) throw notStrict;
  const [yy, month, day, hour, minute, second] = [0, 2, 4, 6, 8, 10].map((at) => Number(text.slice(at, at + 2)));
  return new Date(Date.UTC(yy >= 50 ? 1900 + yy : 2000 + yy, month - 1, day, hour, minute, second));
}

/** YYYYMMDDhhmmss[.f+]Z only, read as asn1js reads it (the fraction to whole milliseconds, rounded down). */
function generalizedTime(content: Uint8Array): Date {
  // a longer value is no time we write or read: left to asn1js (which spreads it into one string too)
  if (content.length > MAX_TIME_OCTETS) throw notStrict;
  const text = ascii(content);
  const fraction = text.length > 16 ? text.slice(15, -1) : "";
  if (text.at(-1) !== "Z" || !DIGITS.test(text.slice(0, 14)) || (text.length !== 15 && (text[14] !== "." || !DIGITS.test(fraction)))) throw notStrict;
  const [year, month, day, hour, minute, second] = [0, 4, 6, 8, 10, 12].map((at, index) => Number(text.slice(at, index === 0 ? 4 : at + 2)));
  const millisecond = fraction ? Math.floor(1e3 * Number(`0.${fraction}`)) : 0;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, millisecond));
}

/** The same view of an element asn1js parsed. */
export function fromAsn1js(block: asn1js.AsnType): DerNode {
  const id = block.idBlock;
  // a view, not a copy: every caller parsed a buffer of its own, and copying each element would copy
  // a deep tree's bytes once per level (a BER input nested 100 deep around a large string)
  const bytes = block.valueBeforeDecodeView ?? new Uint8Array(0);
  // asn1js reads elements into a SEQUENCE or SET even when its tag says primitive, and the readers saw them
  const hasElements = block instanceof asn1js.Constructed || (block instanceof asn1js.OctetString && block.valueBlock.isConstructed);
  const children = hasElements ? (block.valueBlock as { value: asn1js.AsnType[] }).value.map(fromAsn1js) : [];
  const node: DerNode = {
    tagClass: id.tagClass,
    tagNumber: id.tagNumber,
    constructed: id.isConstructed,
    longTag: id.isHexOnly,
    kind: kindOf(block),
    bytes,
    content: bytes.subarray(Math.min(bytes.length, id.blockLength + block.lenBlock.blockLength)),
    children,
    asn1: block,
  };
  if (block instanceof asn1js.ObjectIdentifier) node.oid = block.valueBlock.toString();
  if (block instanceof asn1js.UTCTime) node.time = block.toDate();
  return node;
}

function kindOf(block: asn1js.AsnType): DerNode["kind"] {
  if (block instanceof asn1js.Sequence) return "sequence";
  if (block instanceof asn1js.Set) return "set";
  if (block instanceof asn1js.Constructed) return "constructed";
  if (block instanceof asn1js.OctetString) return "octetString";
  if (block instanceof asn1js.Integer) return "integer";
  if (block instanceof asn1js.ObjectIdentifier) return "oid";
  if (block instanceof asn1js.GeneralizedTime) return "generalizedTime";
  if (block instanceof asn1js.UTCTime) return "utcTime";
  return "other";
}

/** The element as an asn1js block, for pkijs's readers of the rare fields: the one asn1js parsed, or its bytes parsed now. */
export function asAsn1js(node: DerNode): asn1js.AsnType {
  return node.asn1 ?? asn1js.fromBER(new Uint8Array(node.bytes), { parseEmbedded: false }).result;
}

/**
 * The element at the start of `bytes` (trailing bytes allowed) and where it ends: strict DER read
 * directly, anything else by asn1js (parseEmbedded off). undefined when asn1js cannot parse it.
 */
export function parseDer(bytes: Uint8Array): { node: DerNode; end: number } | undefined {
  const own = new Uint8Array(bytes);
  const strict = readStrictDer(own);
  if (strict) return strict;
  const parsed = asn1js.fromBER(own, { parseEmbedded: false });
  if (parsed.offset === -1) return undefined;
  return { node: fromAsn1js(parsed.result), end: parsed.offset };
}
