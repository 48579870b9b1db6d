import crypto from "node:crypto";

/**
 * Compares a presented secret with the expected one in time that depends on neither: both are
 * hashed first, so even their lengths leak nothing.
 */
export function secretsMatch(presented: string | null | undefined, expected: string): boolean {
  if (typeof presented !== "string") return false;
  const digest = (value: string) => crypto.createHash("sha256").update(value, "utf8").digest();
  return crypto.timingSafeEqual(digest(presented), digest(expected));
}
