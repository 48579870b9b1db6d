import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_API_SECRET, ORG_DOMAIN, startTestServer, type TestServer } from "../fixtures/start-test-server";
import { login, processApi, signer, type ProcessApi } from "../fixtures/process-api-client";
import { signerHttp } from "../fixtures/signer-http-flow";

// The eID routes with hostile or missing input: clear answers in Spanish, nothing counted, no crash.
// The full flow against a real provider is e2e/ui/signer-eid.spec.ts.
let server: TestServer;
let api: ProcessApi;
const callback = "/ui/signature_processes/eid/callback?code=stolen-code&state=guessed";

beforeAll(async () => {
  server = await startTestServer();
  api = processApi(server.baseUrl, await login(server.baseUrl, ORG_DOMAIN, ADMIN_EMAIL, ADMIN_API_SECRET));
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

describe("eID routes refuse what they cannot tie to a live login", () => {
  it.each([
    ["no cookie", undefined],
    ["a cookie whose HMAC is forged", `fv_eid=${crypto.randomUUID()}.forged-mac`],
    ["a cookie that is not a login id", "fv_eid=../../etc/passwd.x"],
  ])("the callback with %s answers 400 in Spanish", async (_name, cookie) => {
    const response = await fetch(server.baseUrl + callback, { redirect: "manual", headers: cookie ? { cookie } : {} });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/no se inició en este navegador/);
    expect(response.headers.get("cache-control")).toContain("no-store");
  });

  it("starting an eID login needs the signer session, and a signer without the eid challenge is refused", async () => {
    const noSession = await fetch(`${server.baseUrl}/api/signer/not-a-token/eid`, { method: "POST" });
    expect(noSession.status).toBe(401);
    expect(await noSession.json()).toMatchObject({ reason: "session_expired" });

    const person = signer({ signChallenges: [] });
    const created = await api.create({ signers: [person], description: "sin eID" });
    expect(created.status, await created.clone().text()).toBe(201);
    const flow = signerHttp(server.baseUrl, (await created.json()).msg as string);
    expect((await flow.identify(person.doc_id)).status).toBe(200);
    const start = await fetch(`${server.baseUrl}/api/signer/${flow.token}/eid`, { method: "POST", headers: { cookie: flow.cookie() } });
    expect(start.status).toBe(400);
    expect(await start.json()).toMatchObject({ reason: "eid_not_required", message: "Este firmante no se identifica con un proveedor de identidad." });
  });

  it("refuses eid together with facial, and eid without a provider, naming the field", async () => {
    const both = await api.create({ signers: [signer({ signChallenges: ["facial", "eid"] })], description: "dos desafíos" });
    expect(both.status).toBe(400);
    expect(both.headers.get("x-error-detail")).toMatch(/^signers\.0\.signChallenges/);
    const eid = await api.create({ signers: [signer({ signChallenges: ["eid"] })], description: "sin proveedor" });
    expect(eid.status).toBe(400);
    expect(eid.headers.get("x-error-detail")).toMatch(/^signers\.0\.signChallenges: signChallenges eid requiere/);
  });
});
