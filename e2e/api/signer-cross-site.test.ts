import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_API_SECRET, ADMIN_EMAIL, ORG_DOMAIN, type TestServer } from "../fixtures/start-test-server";
import { startSeededServer } from "../fixtures/start-seeded-server";
import { login, processApi, signer, type ProcessApi } from "../fixtures/process-api-client";
import { signerHttp } from "../fixtures/signer-http-flow";

// Issue 37: the signer API's state-changing routes refuse another site's page as the staff routes
// do (lib/http/check-same-origin.ts), in the signer API's own error format; the signer's own page,
// and callers that are not browsers, go on.
let server: TestServer;
let api: ProcessApi;

beforeAll(async () => {
  server = (await startSeededServer()).server;
  api = processApi(server.baseUrl, await login(server.baseUrl, ORG_DOMAIN, ADMIN_EMAIL, ADMIN_API_SECRET));
}, 300_000);
afterAll(async () => {
  await server?.stop();
});

async function identifiedSigner() {
  const person = signer({ signChallenges: [] });
  const created = await api.create({ signers: [person], description: "enlace de firma" });
  expect(created.status, await created.clone().text()).toBe(201);
  const { id, msg } = (await created.json()) as { id: string; msg: string };
  const flow = signerHttp(server.baseUrl, msg);
  expect((await flow.identify(person.doc_id)).status).toBe(200);
  return { id, flow };
}

describe("signer routes refuse another site's page", () => {
  it.each([
    ["another site's Origin", { origin: "https://evil.example" }],
    ["a sibling port's Origin", { origin: "http://127.0.0.1:1" }],
    ["no Origin, cross-site fetch metadata", { "sec-fetch-site": "cross-site" }],
    ["no Origin, a same-site sibling subdomain", { "sec-fetch-site": "same-site" }],
  ])("%s: a decline with the signer's cookie is 403 cross_site, and the signer is untouched", async (_name, headers) => {
    const { flow } = await identifiedSigner();
    const post = (path: string, body: unknown, extra: Record<string, string>) =>
      fetch(`${server.baseUrl}/api/signer/${flow.token}${path}`, { method: "POST", headers: { "content-type": "application/json", cookie: flow.cookie(), ...extra }, body: JSON.stringify(body) });
    const forged = await post("/decline", { reason: "rechazo forzado por otra página" }, headers);
    expect(forged.status).toBe(403);
    expect(forged.headers.get("set-cookie")).toBeNull();
    expect(await forged.json()).toEqual({ success: false, reason: "cross_site", message: expect.stringMatching(/otro sitio/), requestId: expect.stringMatching(/\S/) });
    // the session route needs no cookie: it is refused before it reads one
    const identify = await post("/session", { nat: "PER", docId: "00000000" }, headers);
    expect(identify.status).toBe(403);
    expect(await identify.json()).toMatchObject({ reason: "cross_site" });
    // not declined: the signer's own page still confirms the names
    const own = await post("/names", { given_name: "Ana", family_name: "Quispe" }, { origin: server.baseUrl, "sec-fetch-site": "same-origin" });
    expect(own.status, await own.clone().text()).toBe(200);
  }, 120_000);

  it("the signer's own page (same origin) and a caller that is not a browser decline", async () => {
    for (const headers of [{ origin: server.baseUrl, "sec-fetch-site": "same-origin" }, {}] as Record<string, string>[]) {
      const { flow } = await identifiedSigner();
      const declined = await fetch(`${server.baseUrl}/api/signer/${flow.token}/decline`, { method: "POST", headers: { "content-type": "application/json", cookie: flow.cookie(), ...headers }, body: JSON.stringify({ reason: "no estoy de acuerdo" }) });
      expect(declined.status, await declined.clone().text()).toBe(200);
      expect(await declined.json()).toMatchObject({ success: true });
    }
  }, 120_000);

  it("a cross-site GET (the document a link shows) is not refused for its Origin", async () => {
    const { id, flow } = await identifiedSigner();
    const listed = (await (await api.list({ process_id: id })).json()) as { signatureProcesses: { documents: { id: string }[] }[] };
    const page = await fetch(`${server.baseUrl}/api/signer/${flow.token}/documents/${listed.signatureProcesses[0].documents[0].id}`, { headers: { cookie: flow.cookie(), origin: "https://evil.example" } });
    expect(page.status, await page.clone().text()).toBe(200);
    expect(page.headers.get("content-type")).toBe("application/pdf");
    await page.arrayBuffer();
  });
});
