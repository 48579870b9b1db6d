import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { x509 } from "@/lib/pki/x509-provider";
import { startOutsideCa, type OutsideCa } from "./testing/outside-ca";
import { newAppPool } from "@/lib/server/worker-pools";
import { fetchOutsideRevocation, forgetOutsideCrls, outsideCrlCacheContents } from "./fetch-outside-revocation";

const derOf = (pemFile: string) => new Uint8Array(new x509.X509Certificate(fs.readFileSync(pemFile, "utf8")).rawData);

const revocationPool = newAppPool({ name: "revocation", size: 1 });
afterAll(() => revocationPool.close());
let ca: OutsideCa;
let agent: Uint8Array;
let root: Uint8Array;
const fetchFor = (allowPrivate: boolean) => fetchOutsideRevocation([agent], { issuersDer: [root], isPlatformIssued: () => false, allowPrivate: async () => allowPrivate, revocationPool });

beforeAll(async () => {
  ca = await startOutsideCa(fs.mkdtempSync(path.join(os.tmpdir(), "fv-outside-crl-")));
  agent = derOf(ca.agentPemFile);
  root = derOf(ca.rootPemFile);
}, 60_000);
afterAll(async () => {
  await ca?.close();
});
beforeEach(() => {
  forgetOutsideCrls();
  ca.setCrlForged(false);
});

describe("fetchOutsideRevocation (issue 26)", () => {
  it("a CRL signed by the wrong key is refused and never cached: the next signature fetches again", async () => {
    ca.setCrlForged(true);
    const before = ca.crlRequests();
    const first = await fetchFor(true);
    expect(first.crls).toHaveLength(0);
    expect(first.missing[0].reason).toMatch(/CRL signature does not verify/);
    expect(outsideCrlCacheContents().keys).toEqual([]);
    await fetchFor(true);
    expect(ca.crlRequests() - before).toBe(2);
    // the genuine CRL is then fetched, used, and cached
    ca.setCrlForged(false);
    expect((await fetchFor(true)).crls).toHaveLength(1);
    expect(outsideCrlCacheContents().keys).toHaveLength(1);
    expect((await fetchFor(true)).crls).toHaveLength(1);
    expect(ca.crlRequests() - before).toBe(3);
  }, 60_000);

  it("keys the cache by the address policy: a CRL fetched with private targets allowed is not served to a caller without", async () => {
    expect((await fetchFor(true)).crls).toHaveLength(1);
    expect(outsideCrlCacheContents().keys[0]).toMatch(/^private-allowed http:\/\/127\.0\.0\.1:/);
    const refused = await fetchFor(false);
    expect(refused.crls).toHaveLength(0);
    expect(refused.missing[0].reason).toMatch(/destino no permitido/);
  }, 60_000);
});
