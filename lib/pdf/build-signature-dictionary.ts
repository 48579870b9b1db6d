export interface SignatureDictionaryInput {
  kind: "signature" | "doc-timestamp";
  contentsBytes: number;
  signingTime?: Date;
  signerName?: string;
  reason?: string;
  location?: string;
  contactInfo?: string;
}

export interface SignaturePlaceholder {
  body: Uint8Array;
  /** Offsets relative to the body start. */
  byteRangeAt: number;
  byteRangeWidth: number;
  /** Offset of "<" and one past ">" of /Contents: the gap of the ByteRange. */
  contentsStart: number;
  contentsEnd: number;
}

// Wide enough for any offset below 10^10 (files up to ~9 GB).
const BYTE_RANGE_PLACEHOLDER = "[0 0000000000 0000000000 0000000000]";

/**
 * Text strings are always written as hex: then no user text (a Reason containing "/ByteRange" or
 * parentheses) can ever look like syntax to a validator that scans the raw bytes.
 */
export function encodeTextString(value: string): string {
  const ascii = /^[\x20-\x7e]*$/.test(value);
  if (ascii) return `<${Buffer.from(value, "latin1").toString("hex").toUpperCase()}>`;
  const utf16 = Buffer.alloc(2 + value.length * 2);
  utf16.writeUInt16BE(0xfeff, 0);
  for (let i = 0; i < value.length; i++) utf16.writeUInt16BE(value.charCodeAt(i), 2 + i * 2);
  return `<${utf16.toString("hex").toUpperCase()}>`;
}

export function formatPdfDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return (
    `D:${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}` +
    `${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}+00'00'`
  );
}

/** Serializes the signature dictionary by hand so the placeholder offsets are known exactly. */
export function buildSignatureDictionary(input: SignatureDictionaryInput): SignaturePlaceholder {
  const head =
    input.kind === "signature"
      ? "<</Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached"
      : "<</Type /DocTimeStamp /Filter /Adobe.PPKLite /SubFilter /ETSI.RFC3161";
  let text = `${head} /ByteRange `;
  const byteRangeAt = text.length;
  text += `${BYTE_RANGE_PLACEHOLDER} /Contents `;
  const contentsStart = text.length;
  text += `<${"0".repeat(input.contentsBytes * 2)}>`;
  const contentsEnd = text.length;
  if (input.signingTime) text += ` /M ${encodeTextString(formatPdfDate(input.signingTime))}`;
  if (input.signerName) text += ` /Name ${encodeTextString(input.signerName)}`;
  if (input.reason) text += ` /Reason ${encodeTextString(input.reason)}`;
  if (input.location) text += ` /Location ${encodeTextString(input.location)}`;
  if (input.contactInfo) text += ` /ContactInfo ${encodeTextString(input.contactInfo)}`;
  text += ">>";
  return {
    body: Buffer.from(text, "latin1"),
    byteRangeAt,
    byteRangeWidth: BYTE_RANGE_PLACEHOLDER.length,
    contentsStart,
    contentsEnd,
  };
}
