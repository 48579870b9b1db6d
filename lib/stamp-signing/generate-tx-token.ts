import crypto from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const LENGTH = 20;
// 248 of 256 byte values are used, so 20 characters need 21 bytes on average: one draw almost always does
const DRAW_BYTES = 32;

/** 20 alphanumerics, like client-supplied values (decision 2); ~119 bits of randomness. */
export function generateTxToken(): string {
  let token = "";
  while (token.length < LENGTH) {
    // one draw of many bytes: a draw per byte cost ~0.25 ms of the main thread per token
    for (const byte of crypto.randomBytes(DRAW_BYTES)) {
      if (byte >= 248) continue; // reject the tail so every character is equally likely
      token += ALPHABET[byte % 62];
      if (token.length === LENGTH) break;
    }
  }
  return token;
}
