import { secretsMatch } from "@/lib/crypto/secrets-match";

/** Constant-time comparison of the presented bearer with METRICS_TOKEN (hashed first, so lengths never show). */
export function isMetricsToken(presented: string | null, expected: string): boolean {
  return secretsMatch(presented, expected);
}
