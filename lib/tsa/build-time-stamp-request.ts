import { randomBytes } from "node:crypto";
import { der } from "@/lib/pki/der-encoder";
import { timeStampHashAlgorithms } from "@/lib/tsa/time-stamp-hash-algorithms";

/** A random positive nonce of exactly 8 content octets, so the answer's echo compares byte for byte. */
export function timeStampNonce(): Uint8Array {
  const nonce = randomBytes(8);
  nonce[0] = (nonce[0]! & 0x7f) | 0x01;
  return nonce;
}

/** RFC 3161 TimeStampReq (DER) for a SHA-256 digest, with a nonce and certReq true. */
export function buildTimeStampRequest(digest: Uint8Array, nonce: Uint8Array, policyOid?: string): Uint8Array {
  if (digest.length !== 32) throw new TypeError("digest must be a SHA-256 value (32 bytes)");
  return der.sequence(
    der.integer(1),
    der.sequence(der.sequence(der.oid(timeStampHashAlgorithms["SHA-256"].oid)), der.octetString(digest)),
    ...(policyOid ? [der.oid(policyOid)] : []),
    der.integer(nonce),
    der.boolean(true), // certReq: the token must carry the TSA certificate for later validation
  );
}
