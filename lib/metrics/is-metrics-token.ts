import crypto from "node:crypto";

/** Constant-time comparison of the presented bearer with METRICS_TOKEN (hashed first, so lengths never show). */
export function isMetricsToken(presented: string | null, expected: string): boolean {
  const digest = (value: string) => crypto.createHash("sha256").update(value).digest();
  return crypto.timingSafeEqual(digest(presented ?? ""), digest(expected)) && presented !== null;
}
