import { createHash } from "node:crypto";
import type { SignaturePlaceholder } from "@/lib/pdf/build-signature-dictionary";

export class SignatureTooLargeError extends Error {
  constructor(
    readonly needed: number,
    readonly reserved: number,
  ) {
    super(`the CMS (${needed} bytes) does not fit the reserved /Contents (${reserved} bytes); raise contentsBytes`);
    this.name = "SignatureTooLargeError";
  }
}

/**
 * Writes the final ByteRange into `output`, hashes the two signed parts in place (no copies), asks
 * `produce` for the DER value and writes it as hex into the /Contents gap.
 * `bodyOffset` is the absolute offset of the placeholder's body inside `output`.
 */
export async function embedSignature(
  output: Uint8Array,
  bodyOffset: number,
  placeholder: SignaturePlaceholder,
  produce: (digestSha256: Uint8Array) => Promise<Uint8Array>,
): Promise<Uint8Array> {
  const gapStart = bodyOffset + placeholder.contentsStart;
  const gapEnd = bodyOffset + placeholder.contentsEnd;
  const byteRange = `[0 ${gapStart} ${gapEnd} ${output.length - gapEnd}]`.padEnd(placeholder.byteRangeWidth, " ");
  if (byteRange.length !== placeholder.byteRangeWidth) throw new Error("ByteRange does not fit its placeholder");
  output.set(Buffer.from(byteRange, "latin1"), bodyOffset + placeholder.byteRangeAt);

  const hash = createHash("sha256");
  hash.update(output.subarray(0, gapStart));
  hash.update(output.subarray(gapEnd));
  const digest = new Uint8Array(hash.digest());

  const der = await produce(digest);
  const reserved = (gapEnd - gapStart - 2) / 2;
  if (der.length > reserved) throw new SignatureTooLargeError(der.length, reserved);
  output.set(Buffer.from(Buffer.from(der).toString("hex").toUpperCase(), "latin1"), gapStart + 1);
  return output;
}
