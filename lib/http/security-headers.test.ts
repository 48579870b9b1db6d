import { describe, expect, it } from "vitest";
import { securityHeaders } from "./security-headers";

describe("securityHeaders", () => {
  it("gives pages a nonce-based script policy, no framing, nosniff and a referrer policy", () => {
    const headers = securityHeaders({ nonce: "abc", pathname: "/processes" });
    expect(headers["content-security-policy"]).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(headers["content-security-policy"]).not.toMatch(/ 'unsafe-eval'/);
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers).toMatchObject({ "x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "strict-origin-when-cross-origin" });
    expect(headers["strict-transport-security"]).toBeUndefined();
  });

  it("lets only the listed origins frame the signer pages, and only them", () => {
    const signer = securityHeaders({ nonce: "n", pathname: "/ui/signature_processes/x", frameAncestors: "https://portal.example" });
    expect(signer["content-security-policy"]).toContain("frame-ancestors https://portal.example");
    expect(signer["x-frame-options"]).toBeUndefined();
    expect(signer["permissions-policy"]).toContain("camera=(self)");
    const dashboard = securityHeaders({ nonce: "n", pathname: "/processes", frameAncestors: "https://portal.example" });
    expect(dashboard["content-security-policy"]).toContain("frame-ancestors 'none'");
  });

  it("adds HSTS behind https and no-store on API answers", () => {
    expect(securityHeaders({ nonce: "n", pathname: "/api/v2/signPDF", publicUrl: "https://firma.example" })).toMatchObject({
      "strict-transport-security": "max-age=31536000; includeSubDomains",
      "cache-control": "no-store",
    });
  });
});
