import { createHash } from "node:crypto";
import { PkiError } from "@/lib/pki/errors";

export type Pkcs12Hash = "sha1" | "sha256" | "sha384" | "sha512";

/**
 * Real exporters use 2,048 (OpenSSL) to 600,000 iterations; one million PKCS#12-KDF rounds take
 * about a second here, so a file may ask for 2,000,000 per derivation and 6,000,000 in all.
 */
export const MAX_KDF_ITERATIONS = 2_000_000;
export const MAX_KDF_WORK = 6_000_000;

/** The key-derivation work one PKCS#12 file may cost, counted before any of it is done. */
export class KdfBudget {
  private spent = 0;

  spend(iterations: number, blocks = 1): void {
    if (!Number.isSafeInteger(iterations) || iterations < 1) throw new PkiError("INVALID_PKCS12", "Invalid PKCS#12 iteration count");
    if (iterations > MAX_KDF_ITERATIONS) {
      throw new PkiError("PKCS12_TOO_COSTLY", `The PKCS#12 file asks for ${iterations.toLocaleString("en-US")} key-derivation iterations; at most ${MAX_KDF_ITERATIONS.toLocaleString("en-US")} are accepted`);
    }
    this.spent += iterations * blocks;
    if (this.spent > MAX_KDF_WORK) throw new PkiError("PKCS12_TOO_COSTLY", "The PKCS#12 file asks for too much key-derivation work in total");
  }
}

/** What the derived bytes are for (RFC 7292 B.3). */
export const pkcs12KeyPurpose = { key: 1, iv: 2, mac: 3 } as const;

const blockSize: Record<Pkcs12Hash, number> = { sha1: 64, sha256: 64, sha384: 128, sha512: 128 };

/** The password as a BMPString with a terminating NUL, as RFC 7292 B.1 requires. */
function bmpPassword(password: string): Buffer {
  const out = Buffer.alloc(password.length * 2 + 2);
  for (let i = 0; i < password.length; i++) out.writeUInt16BE(password.charCodeAt(i), i * 2);
  return out;
}

function repeatToMultiple(data: Uint8Array, v: number): Buffer {
  if (data.length === 0) return Buffer.alloc(0);
  const out = Buffer.alloc(v * Math.ceil(data.length / v));
  for (let i = 0; i < out.length; i++) out[i] = data[i % data.length]!;
  return out;
}

/** PKCS#12 v1.0 key derivation (RFC 7292 appendix B.2), used by the MAC and the legacy PBE schemes. */
export function derivePkcs12Key(
  hash: Pkcs12Hash,
  password: string,
  salt: Uint8Array,
  iterations: number,
  purpose: (typeof pkcs12KeyPurpose)[keyof typeof pkcs12KeyPurpose],
  length: number,
  budget: KdfBudget = new KdfBudget(),
): Buffer {
  const v = blockSize[hash];
  budget.spend(iterations, Math.ceil(length / createHash(hash).digest().length));
  const d = Buffer.alloc(v, purpose);
  const i = Buffer.concat([repeatToMultiple(salt, v), repeatToMultiple(bmpPassword(password), v)]);
  const blocks: Buffer[] = [];
  let produced = 0;
  while (produced < length) {
    let a = createHash(hash).update(d).update(i).digest();
    for (let round = 1; round < iterations; round++) a = createHash(hash).update(a).digest();
    blocks.push(a);
    produced += a.length;
    if (produced >= length) break;
    // I_j = (I_j + B + 1) mod 2^(8v) for every v-byte block of I
    const b = repeatToMultiple(a, v);
    for (let offset = 0; offset < i.length; offset += v) {
      let carry = 1;
      for (let k = v - 1; k >= 0; k--) {
        const sum = i[offset + k]! + b[k]! + carry;
        i[offset + k] = sum & 0xff;
        carry = sum >> 8;
      }
    }
  }
  return Buffer.concat(blocks).subarray(0, length);
}
