import crypto from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** 20 alphanumerics, like client-supplied values (decision 2); ~119 bits of randomness. */
export function generateTxToken(): string {
  let token = "";
  while (token.length < 20) {
    const byte = crypto.randomBytes(1)[0];
    if (byte < 248) token += ALPHABET[byte % 62]; // reject the tail so every character is equally likely
  }
  return token;
}
