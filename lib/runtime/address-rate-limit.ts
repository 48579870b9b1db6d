import ipaddr from "ipaddr.js";
import { AppError } from "@/lib/errors";

export class TooManyRequestsError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super("RATE_LIMITED", `Demasiadas solicitudes desde su dirección; intente de nuevo en ${retryAfterSeconds} s.`);
  }
}

/**
 * A per-client-address budget of requests per window, kept in this process's memory: it guards this
 * instance's CPU, which is what an anonymous caller spends. An IPv6 client is counted by its /64,
 * since one host usually holds the whole prefix. At most `maxAddresses` windows are kept; past that
 * the oldest are forgotten (a flood of addresses is the pool's cap's job, not this one's).
 */
export class AddressRateLimit {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(private readonly options: { limit: number; windowMs: number; maxAddresses?: number }) {}

  /** Counts one request from `address`; throws TooManyRequestsError past the budget. */
  take(address: string, now = Date.now()): void {
    const key = addressKey(address);
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= this.options.windowMs) {
      this.windows.delete(key);
      window = { startedAt: now, count: 0 };
      this.windows.set(key, window);
      this.forgetOldest();
    }
    if (window.count >= this.options.limit) {
      throw new TooManyRequestsError(Math.max(1, Math.ceil((window.startedAt + this.options.windowMs - now) / 1000)));
    }
    window.count += 1;
  }

  private forgetOldest(): void {
    const max = this.options.maxAddresses ?? 10_000;
    // a Map iterates in insertion order and a renewed window is re-inserted: the first is the oldest
    for (const key of this.windows.keys()) {
      if (this.windows.size <= max) return;
      this.windows.delete(key);
    }
  }
}

function addressKey(address: string): string {
  // dotted forms (::ffff:a.b.c.d) name one IPv4 host: counted as written
  if (!address.includes(".") && ipaddr.IPv6.isValid(address)) {
    return `${ipaddr.IPv6.parse(address).parts.slice(0, 4).map((part) => part.toString(16)).join(":")}::/64`;
  }
  return address;
}
