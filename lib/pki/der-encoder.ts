/**
 * Minimal DER writer: CMS and RFC 3161 structures are built from raw bytes so that certificates,
 * names and imprints are copied verbatim (never re-encoded) and signing stays allocation-light.
 */
type Der = Uint8Array<ArrayBuffer>;
type Bytes = Uint8Array;

function concat(parts: readonly Bytes[]): Der {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function lengthBytes(length: number): Der {
  if (length < 0x80) return Uint8Array.of(length);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest & 0xff);
  return Uint8Array.of(0x80 | bytes.length, ...bytes);
}

function tlv(tag: number, ...contents: Bytes[]): Der {
  const value = concat(contents);
  return concat([Uint8Array.of(tag), lengthBytes(value.length), value]);
}

/** DER SET OF: elements sorted by their encodings (X.690 11.6); OpenSSL re-encodes signedAttrs and would otherwise disagree. */
function sortForSet(elements: readonly Bytes[]): Bytes[] {
  return [...elements].sort((a, b) => {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return a.length - b.length;
  });
}

function oid(dotted: string): Der {
  const arcs = dotted.split(".").map((arc) => BigInt(arc));
  if (arcs.length < 2) throw new Error(`Invalid OID ${dotted}`);
  const body: number[] = [];
  const first = arcs[0]! * 40n + arcs[1]!;
  for (const arc of [first, ...arcs.slice(2)]) {
    const chunk: number[] = [Number(arc & 0x7fn)];
    for (let rest = arc >> 7n; rest > 0n; rest >>= 7n) chunk.unshift(Number(rest & 0x7fn) | 0x80);
    body.push(...chunk);
  }
  return tlv(0x06, Uint8Array.from(body));
}

/** Two's-complement minimal INTEGER; a byte array is taken as an already-encoded content (copied as is). */
function integer(value: bigint | number | Bytes): Der {
  if (value instanceof Uint8Array) return tlv(0x02, value);
  let n = BigInt(value);
  const bytes: number[] = [];
  if (n >= 0n) {
    do {
      bytes.unshift(Number(n & 0xffn));
      n >>= 8n;
    } while (n > 0n);
    if (bytes[0]! & 0x80) bytes.unshift(0);
  } else {
    do {
      bytes.unshift(Number(n & 0xffn));
      n >>= 8n;
    } while (n < -1n || (bytes[0]! & 0x80) === 0);
  }
  return tlv(0x02, Uint8Array.from(bytes));
}

function generalizedTime(date: Date): Der {
  const iso = date.toISOString(); // 2024-01-02T03:04:05.678Z
  const millis = iso.slice(20, 23).replace(/0+$/, "");
  const text = iso.slice(0, 19).replace(/[-:T]/g, "") + (millis ? `.${millis}` : "") + "Z";
  return tlv(0x18, new TextEncoder().encode(text));
}

/** Bits numbered from the most significant bit of the first byte; trailing zero bits dropped (DER named bits). */
function namedBitString(bits: readonly number[]): Der {
  if (bits.length === 0) return tlv(0x03, Uint8Array.of(0));
  const highest = Math.max(...bits);
  const bytes = new Uint8Array(Math.floor(highest / 8) + 1);
  for (const bit of bits) bytes[bit >> 3]! |= 0x80 >> (bit & 7);
  const unused = 7 - (highest & 7);
  return tlv(0x03, Uint8Array.of(unused), bytes);
}

export const der = {
  concat,
  tlv,
  sequence: (...contents: Bytes[]) => tlv(0x30, ...contents),
  set: (...contents: Bytes[]) => tlv(0x31, ...contents),
  setOf: (elements: readonly Bytes[]) => tlv(0x31, ...sortForSet(elements)),
  /** [n] IMPLICIT SET OF: same sorting as setOf, different tag. */
  implicitSetOf: (tagNumber: number, elements: readonly Bytes[]) => tlv(0xa0 | tagNumber, ...sortForSet(elements)),
  explicit: (tagNumber: number, ...contents: Bytes[]) => tlv(0xa0 | tagNumber, ...contents),
  implicitPrimitive: (tagNumber: number, content: Bytes) => tlv(0x80 | tagNumber, content),
  oid,
  integer,
  boolean: (value: boolean) => tlv(0x01, Uint8Array.of(value ? 0xff : 0)),
  null: () => Uint8Array.of(0x05, 0x00),
  octetString: (content: Bytes) => tlv(0x04, content),
  utf8String: (text: string) => tlv(0x0c, new TextEncoder().encode(text)),
  generalizedTime,
  namedBitString,
};
