import { AddressRateLimit } from "@/lib/runtime/address-rate-limit";
import { processSingleton } from "@/lib/process-wide/singleton";


/**
 * The anonymous verifier's budget per client address (VERIFY_RATE_LIMIT a minute, 20 by default),
 * one per process like the CPU pool it protects.
 */
export function publicVerificationLimit(perMinute: number): AddressRateLimit {
  return processSingleton("firmaviva.verify-rate-limit", () => new AddressRateLimit({ limit: perMinute, windowMs: 60_000 }));
}
