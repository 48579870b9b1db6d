import { AddressRateLimit } from "@/lib/http/address-rate-limit";

const LIMIT = Symbol.for("firmaviva.verify-rate-limit");

/**
 * The anonymous verifier's budget per client address (VERIFY_RATE_LIMIT a minute, 20 by default),
 * one per process like the CPU pool it protects.
 */
export function publicVerificationLimit(perMinute: number): AddressRateLimit {
  const holder = globalThis as { [LIMIT]?: AddressRateLimit };
  holder[LIMIT] ??= new AddressRateLimit({ limit: perMinute, windowMs: 60_000 });
  return holder[LIMIT];
}
