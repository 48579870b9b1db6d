import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../fixtures/start-test-server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { FRAME_ANCESTORS: "https://portal.example" } });
});
afterAll(async () => {
  await server?.stop();
});

describe("security headers on every page family", () => {
  it.each([
    ["staff login", "/login"],
    ["dashboard (redirects to login)", "/processes"],
    ["public verifier", "/verify"],
    ["signer page", "/ui/signature_processes/no-such-token"],
    ["stamp API", "/api/v2/getSignedPDF?tx_token=x"],
    ["stamp API, answered straight from node:http (scripts/direct-api-routes.mjs)", "/api/v3/signTimeStamp"],
    ["stamp API, answered by Next", "/api/v2/updateSignCredentials"],
    ["health", "/api/health"],
  ])("%s", async (_name, pathname) => {
    const response = await fetch(server.baseUrl + pathname, { redirect: "manual" });
    const csp = response.headers.get("content-security-policy") ?? "";
    // pages get a nonce policy; API answers (data, never documents with scripts) allow nothing at all
    if (pathname.startsWith("/api/")) expect(csp).toContain("default-src 'none'");
    else expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    if (pathname.startsWith("/ui/")) {
      expect(csp).toContain("frame-ancestors https://portal.example");
      expect(response.headers.get("x-frame-options")).toBeNull();
    } else {
      expect(csp).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
    }
    if (pathname.startsWith("/api/") || pathname.startsWith("/ui/")) expect(response.headers.get("cache-control")).toContain("no-store");
  });

  it("the direct routes answer as Next does: the same API headers; other methods and spellings go to Next", async () => {
    const direct = await fetch(`${server.baseUrl}/api/v2/signPDF`, { method: "POST" });
    const throughNext = await fetch(`${server.baseUrl}/api/v2/updateSignCredentials`, { method: "POST" });
    expect(direct.status).toBe(401);
    expect(throughNext.status).toBe(401);
    for (const name of ["content-security-policy", "x-content-type-options", "referrer-policy", "x-frame-options", "cache-control", "content-type"]) {
      expect(direct.headers.get(name), name).toBe(throughNext.headers.get(name));
    }
    expect((await fetch(`${server.baseUrl}/api/v2/signPDF`)).status).toBe(405);
    expect((await fetch(`${server.baseUrl}/api/v2/signPDF/`, { method: "POST", redirect: "manual" })).status).toBe(308);
  });

  it("the page's scripts carry the nonce of its policy, and it changes per request", async () => {
    const first = await fetch(`${server.baseUrl}/login`);
    const html = await first.text();
    const nonce = /'nonce-([^']+)'/.exec(first.headers.get("content-security-policy")!)![1];
    expect(html).toContain(`nonce="${nonce}"`);
    const second = await fetch(`${server.baseUrl}/login`);
    expect(second.headers.get("content-security-policy")).not.toContain(nonce);
  });
});
