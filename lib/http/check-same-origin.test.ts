import { describe, expect, it } from "vitest";
import { checkSameOrigin } from "./check-same-origin";

const request = (method: string, headers: Record<string, string>) => new Request("http://127.0.0.1:3000/api/dashboard/processes", { method, headers });

describe("checkSameOrigin", () => {
  const cases: [string, string, Record<string, string>, string | undefined, boolean][] = [
    ["same origin", "POST", { origin: "http://127.0.0.1:3000" }, undefined, true],
    ["PUBLIC_URL behind a TLS proxy", "PUT", { origin: "https://firma.example.pe" }, "https://firma.example.pe", true],
    ["another site", "POST", { origin: "https://evil.example" }, "https://firma.example.pe", false],
    ["a sibling port", "POST", { origin: "http://127.0.0.1:3001" }, undefined, false],
    ["the null origin of a sandboxed frame", "DELETE", { origin: "null" }, undefined, false],
    ["no Origin, cross-site fetch metadata", "POST", { "sec-fetch-site": "cross-site" }, undefined, false],
    ["no Origin, same-site (a sibling subdomain)", "POST", { "sec-fetch-site": "same-site" }, undefined, false],
    ["no Origin, same-origin fetch metadata", "POST", { "sec-fetch-site": "same-origin" }, undefined, true],
    ["not from a browser", "POST", {}, undefined, true],
    ["a cross-site GET (downloads stay linkable)", "GET", { origin: "https://evil.example" }, undefined, true],
  ];
  for (const [name, method, headers, publicUrl, allowed] of cases) {
    it(`${name} → ${allowed ? "allowed" : "refused"}`, () => {
      const check = () => checkSameOrigin(request(method, headers), publicUrl);
      if (allowed) expect(check).not.toThrow();
      else expect(check).toThrow(/origen no permitido|otro sitio/);
    });
  }
});
