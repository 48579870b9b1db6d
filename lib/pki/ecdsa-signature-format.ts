import { der } from "@/lib/pki/der-encoder";
import { PkiError } from "@/lib/pki/errors";

/** PKCS#11 CKM_ECDSA and WebCrypto give r||s; CMS and X.509 want DER Ecdsa-Sig-Value (RFC 5480). */
export function convertEcdsaRawToDer(raw: Uint8Array): Uint8Array {
  if (raw.length === 0 || raw.length % 2 !== 0) throw new PkiError("INVALID_INPUT", "An ECDSA signature r||s has an even, non-zero length");
  const half = raw.length / 2;
  return der.sequence(der.integer(unsignedBigInt(raw.subarray(0, half))), der.integer(unsignedBigInt(raw.subarray(half))));
}

/** The reverse, for x509's WebCrypto-shaped `sign`: each integer left-padded to the curve size. */
export function convertEcdsaDerToRaw(signature: Uint8Array, size: number): Uint8Array {
  // SEQUENCE { INTEGER r, INTEGER s } with short lengths: a P-256 signature is at most 72 bytes
  if (signature[0] !== 0x30 || signature[1] !== signature.length - 2) throw new PkiError("INVALID_INPUT", "Not a DER ECDSA signature");
  const out = new Uint8Array(size * 2);
  let offset = 2;
  for (let index = 0; index < 2; index++) {
    if (signature[offset] !== 0x02) throw new PkiError("INVALID_INPUT", "Not a DER ECDSA signature");
    const length = signature[offset + 1];
    let value = signature.subarray(offset + 2, offset + 2 + length);
    while (value.length > size && value[0] === 0) value = value.subarray(1);
    if (value.length > size) throw new PkiError("INVALID_INPUT", "ECDSA integer longer than the curve");
    out.set(value, index * size + size - value.length);
    offset += 2 + length;
  }
  if (offset !== signature.length) throw new PkiError("INVALID_INPUT", "Not a DER ECDSA signature");
  return out;
}

function unsignedBigInt(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString("hex")}`);
}
