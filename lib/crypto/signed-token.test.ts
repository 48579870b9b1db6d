import { describe, expect, it } from "vitest";
import { expiresAtSeconds, tokenExpired, tokenMac, tokenMacMatches } from "@/lib/crypto/signed-token";

const key = new Uint8Array(32).fill(7);
const now = Date.UTC(2026, 10, 1, 12, 0, 0);
const expires = 1793534520; // now + 120 s
const payload = "a1a2a3a4-b1b2-4c1c-8d1d-e1e2e3e4e5e6.11111111-2222-4333-8444-555555555555.1793534520";

describe("purposes", () => {
  it("a MAC made for one purpose never verifies for another", () => {
    const mac = tokenMac(key, "document-links", payload);
    // what the old document-link code made: HMAC-SHA256 under deriveKey(secret, "document-links"), base64url
    expect(mac).toBe("vtrCpGCUal-x-qrDgAwgRTL4_e4NOYZsvetr_HD2wWI");
    expect(tokenMacMatches(key, "document-links", payload, mac)).toBe(true);
    for (const other of ["signing-links", "selfie-links", "signer-session", "facial-ticket", "eid-login-cookie"] as const) {
      expect(tokenMacMatches(key, other, payload, mac)).toBe(false);
    }
  });

  it("a token is expired from its expiry second on, and a non-number has expired", () => {
    expect(expiresAtSeconds(now + 999, 120)).toBe(expires);
    expect(tokenExpired(expires, expires * 1000 - 1)).toBe(false);
    expect(tokenExpired(expires, expires * 1000)).toBe(true);
    expect(tokenExpired(Number.NaN, now)).toBe(true);
  });
});
