import { describe, expect, it } from "vitest";
import { AddressRateLimit, TooManyRequestsError } from "./address-rate-limit";

describe("AddressRateLimit", () => {
  it("allows the budget per address and window, then refuses with the seconds left", () => {
    const limit = new AddressRateLimit({ limit: 3, windowMs: 60_000 });
    for (let i = 0; i < 3; i++) limit.take("203.0.113.7", 1000);
    let refused: unknown;
    try {
      limit.take("203.0.113.7", 21_000);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(TooManyRequestsError);
    expect((refused as TooManyRequestsError).retryAfterSeconds).toBe(40);
    // another address has its own budget; the window's end gives a new one
    expect(() => limit.take("203.0.113.8", 21_000)).not.toThrow();
    expect(() => limit.take("203.0.113.7", 61_000)).not.toThrow();
  });

  it("counts an IPv6 client by its /64, so rotating the interface id gains nothing", () => {
    const limit = new AddressRateLimit({ limit: 2, windowMs: 60_000 });
    limit.take("2001:db8:1:2::1", 0);
    limit.take("2001:db8:1:2:aaaa::9", 0);
    expect(() => limit.take("2001:db8:1:2:ffff:ffff:ffff:ffff", 0)).toThrow(TooManyRequestsError);
    expect(() => limit.take("2001:db8:1:3::1", 0)).not.toThrow();
  });

  it("keeps at most maxAddresses windows, forgetting the oldest", () => {
    const limit = new AddressRateLimit({ limit: 1, windowMs: 60_000, maxAddresses: 2 });
    limit.take("198.51.100.1", 0);
    limit.take("198.51.100.2", 0);
    limit.take("198.51.100.3", 0);
    expect(() => limit.take("198.51.100.1", 0)).not.toThrow(); // forgotten, so a fresh window
    expect(() => limit.take("198.51.100.3", 0)).toThrow(TooManyRequestsError);
  });
});
