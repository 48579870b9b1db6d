import crypto from "node:crypto";

/** One SECRET_KEY, many independent keys: each purpose gets its own HKDF-derived key. */
export function deriveKey(secretKey: Uint8Array, purpose: string, length = 32): Buffer {
  return Buffer.from(crypto.hkdfSync("sha256", secretKey, Buffer.alloc(0), `firmaviva:${purpose}`, length));
}

export function sha256Hex(data: string | Uint8Array): string {
  return crypto.createHash("sha256").update(data).digest("hex");
}
