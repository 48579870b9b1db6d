const MAX_DEPTH = 32;

/**
 * Returns why `bytes` is not strict DER (X.690 10), or undefined when it is: definite minimal
 * lengths, primitive strings, canonical BOOLEAN and INTEGER. A TSA signs what it copies from the
 * request, so BER there would make the signed TSTInfo non-DER.
 */
export function findDerViolation(bytes: Uint8Array): string | undefined {
  const end = walk(bytes, 0, bytes.length, 0);
  if (typeof end === "string") return end;
  return end === bytes.length ? undefined : "bytes after the end of the structure";
}

function walk(bytes: Uint8Array, at: number, limit: number, depth: number): number | string {
  if (depth > MAX_DEPTH) return "nested too deeply";
  if (at >= limit) return "truncated";
  const tag = bytes[at];
  if ((tag & 0x1f) === 0x1f) return "high tag numbers are not used here";
  const constructed = (tag & 0x20) !== 0;
  let pos = at + 1;
  if (pos >= limit) return "truncated";
  const first = bytes[pos++];
  let length: number;
  if (first === 0x80) return "indefinite length (BER)";
  if (first < 0x80) length = first;
  else {
    const count = first & 0x7f;
    if (count > 4 || pos + count > limit) return "length out of range";
    if (bytes[pos] === 0) return "length with leading zero octets (BER)";
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + bytes[pos++];
    if (length < 0x80) return "long-form length for a short value (BER)";
  }
  const contentEnd = pos + length;
  if (contentEnd > limit) return "length runs past the end";
  const universal = (tag & 0xc0) === 0;
  const number = tag & 0x1f;
  if (universal && constructed && (number === 3 || number === 4)) return "constructed string (BER)";
  if (universal && number === 1 && (length !== 1 || (bytes[pos] !== 0 && bytes[pos] !== 0xff))) return "BOOLEAN that is not 00 or FF";
  if (universal && number === 2) {
    if (length === 0) return "empty INTEGER";
    if (length > 1 && ((bytes[pos] === 0 && bytes[pos + 1] < 0x80) || (bytes[pos] === 0xff && bytes[pos + 1] >= 0x80))) return "INTEGER not in minimal form";
  }
  if (constructed) {
    let inner = pos;
    while (inner < contentEnd) {
      const next = walk(bytes, inner, contentEnd, depth + 1);
      if (typeof next === "string") return next;
      inner = next;
    }
  }
  return contentEnd;
}
