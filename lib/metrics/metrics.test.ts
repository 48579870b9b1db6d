import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { metrics, routeLabel } from "./metrics";
import { isMetricsToken } from "./is-metrics-token";
import { KNOWN_ROUTES } from "./known-routes";
import { requestIdOf, currentRequestId, runWithRequestContext } from "@/lib/runtime/request-context";

describe("route labels keep ids and tokens out of the metrics", () => {
  it.each([
    ["/api/v3/signPDF", "/api/v3/signPDF"],
    ["/api/signer/Yp3kQ9x_2ZrT8mWq1vLc/sign", "/api/signer/:id/sign"],
    ["/api/documents/0b8f7e4c-1a2b-4c3d-9e8f-0123456789ab", "/api/documents/:id"],
    // made-up paths: one label, whatever their words
    ["/api/documents/0b8f7e4c/download", "other"],
    ["/api/session/callback/credentials", "/api/session/:id"],
    ["/api/invented", "other"],
    ["/api/signer", "other"],
    ["/api/signer/abc/xyz", "other"],
    ["/api/selfies/12345678", "/api/selfies/:id"],
    ["/api/health/", "/api/health"],
    ["/api/pki/ca.pem", "/api/pki/ca.pem"],
    ["/api/signer/abcdefghijklmnopqrstuvwxyzabcdefgh/eid", "/api/signer/:id/eid"],
    // a token that happens to be all letters is still a parameter by its position
    ["/api/signer/no-such-link/sign", "/api/signer/:id/sign"],
    ["/api/signer/AbCdEf/documents/GhIjKl", "/api/signer/:id/documents/:id"],
    ["/api/dashboard/processes", "/api/dashboard/processes"],
    ["/api/dashboard/processes/abc/evidence", "/api/dashboard/processes/:id/evidence"],
    ["/api/pki/crl/issuing.crl", "/api/pki/crl/:id"],
  ])("%s -> %s", (path, label) => expect(routeLabel(path)).toBe(label));
});

describe("the known routes", () => {
  it("are exactly the route handlers under app/", () => {
    const onDisk = (fs.readdirSync("app", { recursive: true }) as string[])
      .filter((file) => path.basename(file) === "route.ts")
      .map((file) => "/" + path.dirname(file).split(path.sep).join("/"))
      .sort();
    expect([...KNOWN_ROUTES].sort()).toEqual(onDisk);
  });
});

describe("metrics registry", () => {
  it("is one per process, shared by every importer", async () => {
    expect(metrics()).toBe(metrics());
    metrics().signatures.inc({ kind: "stamp", pades_level: "B-LTA" });
    expect(await metrics().registry.metrics()).toMatch(/firmaviva_signatures_total\{kind="stamp",pades_level="B-LTA"\} [1-9]/);
  });

  it("accepts only the exact METRICS_TOKEN", () => {
    const token = "m".repeat(40);
    expect(isMetricsToken(token, token)).toBe(true);
    for (const wrong of [null, "", "m".repeat(39), "m".repeat(41), "n" + "m".repeat(39)]) expect(isMetricsToken(wrong, token)).toBe(false);
  });
});

describe("request ids", () => {
  const withHeader = (value?: string) => new Request("http://x/api/health", { headers: value === undefined ? {} : { "x-request-id": value } });
  it("keeps a sane incoming id", () => {
    expect(requestIdOf(withHeader("abc-DEF_123"))).toBe("abc-DEF_123");
    expect(requestIdOf(withHeader("a".repeat(64)))).toBe("a".repeat(64));
  });
  it.each([["a".repeat(65)], ["has space"], ["ünicode"], ["a;b"], [""], ["../etc"]])("replaces %j with a new one", (offered) => {
    const id = requestIdOf(withHeader(offered));
    expect(id).not.toBe(offered);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });
  it("is visible to code running for the request, and only there", async () => {
    expect(currentRequestId()).toBeUndefined();
    const seen = await runWithRequestContext({ requestId: "r-1" }, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return currentRequestId();
    });
    expect(seen).toBe("r-1");
    expect(currentRequestId()).toBeUndefined();
  });
});
