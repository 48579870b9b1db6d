import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCallbackCollector, type CallbackCollector } from "../fixtures/callback-collector";
import { ADMIN_EMAIL, ADMIN_API_SECRET, ADMIN_PASSWORD, ORG_DOMAIN, type TestServer } from "../fixtures/start-test-server";
import { startSeededServer } from "../fixtures/start-seeded-server";
import { login, processApi, signer, waitFor, type ProcessApi } from "../fixtures/process-api-client";
import { signerHttp } from "../fixtures/signer-http-flow";
import { staffCookie } from "../fixtures/staff-cookie";
import { callServerAction } from "../fixtures/server-action";
import { startOidcTestProvider, type OidcTestProvider } from "../fixtures/oidc-test-provider";
import { signInAtProviderOverHttp } from "../fixtures/oidc-http-login";

// The eID routes with hostile or missing input: clear answers in Spanish, nothing counted, no crash;
// then one whole eID signature over HTTP, whose level reaches sign_data and the callback. The
// browser flow against the same provider is e2e/ui/signer-eid.spec.ts.
let server: TestServer;
let api: ProcessApi;
let op: OidcTestProvider | undefined;
let receiver: CallbackCollector<{ id: string; status: string; signers: { sign_data: { identity?: unknown } }[] }>;
let callbackUrl = "";
const callback = "/ui/signature_processes/eid/callback?code=stolen-code&state=guessed";

beforeAll(async () => {
  receiver = await startCallbackCollector<{ id: string; status: string; signers: { sign_data: { identity?: unknown } }[] }>();
  callbackUrl = receiver.url;
  // seeded: its demo.local may send callbacks to this loopback receiver
  server = (await startSeededServer()).server;
  api = processApi(server.baseUrl, await login(server.baseUrl, ORG_DOMAIN, ADMIN_EMAIL, ADMIN_API_SECRET));
}, 300_000);
afterAll(async () => {
  await server?.stop();
  await op?.close();
  receiver?.close();
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

describe("a whole eID signature over HTTP", () => {
  beforeAll(async () => {
    op = await startOidcTestProvider({ redirectUri: `${server.baseUrl}/ui/signature_processes/eid/callback` });
    const owner = await staffCookie(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    const saved = await callServerAction(
      server.baseUrl,
      { page: "/organization", exportedName: "saveIdentityProviderAction", file: "organization/identity-provider-actions" },
      [{ displayName: "Identidad de Prueba", issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret, scopes: "profile document", documentNumberClaim: "document_number", givenNameClaim: "given_name", familyNameClaim: "family_name" }],
      owner,
    );
    expect(saved.result).toMatchObject({ ok: true });
  }, 120_000);

  /** An identified eID signer whose login is started: the provider's URL and this browser's login cookie. */
  async function startedEidLogin(given: string) {
    const person = signer({ signChallenges: ["eid"] });
    const created = await api.create({ signers: [person], description: `eID de ${given}` });
    expect(created.status, await created.clone().text()).toBe(201);
    const flow = signerHttp(server.baseUrl, (await created.json()).msg as string);
    expect((await flow.identify(person.doc_id)).status).toBe(200);
    op!.addAccount(`${given}-${person.doc_id}`, { document_number: person.doc_id, given_name: given, family_name: "Prueba" });
    const started = await fetch(`${server.baseUrl}/api/signer/${flow.token}/eid`, { method: "POST", headers: { cookie: flow.cookie() } });
    expect(started.status, await started.clone().text()).toBe(200);
    const loginCookie = started.headers.getSetCookie().map((c) => c.split(";")[0]).find((c) => c.startsWith("fv_eid="))!;
    const { url } = (await started.json()) as { url: string };
    const signIn = () => signInAtProviderOverHttp({ authorizationUrl: url, issuer: op!.issuer, login: `${given}-${person.doc_id}` });
    return { flow, loginCookie, signIn };
  }

  it("a forced callback (another browser's cookie, or none) burns no login and counts no try; the right cookie signs in", async () => {
    const ana = await startedEidLogin("Ana");
    const bea = await startedEidLogin("Bea");
    const anaBack = await ana.signIn();
    expect(new URL(anaBack).searchParams.get("state")).toMatch(/\S/);
    // three forced tries would lock Bea, had they counted; each leaves her login and its cookie alone
    for (const cookie of [bea.loginCookie, bea.loginCookie, bea.loginCookie, undefined]) {
      const forced = await fetch(anaBack, { redirect: "manual", headers: cookie ? { cookie } : {} });
      expect(forced.status).toBe(400);
      expect(await forced.text()).toMatch(/no se inició en este navegador/);
      if (cookie) expect(forced.headers.getSetCookie()).toEqual([]);
    }
    for (const [who, back] of [[ana, anaBack], [bea, await bea.signIn()]] as const) {
      const finished = await fetch(back, { redirect: "manual", headers: { cookie: who.loginCookie } });
      expect(finished.status, await finished.clone().text()).toBe(303);
      expect(finished.headers.get("location")).toBe(`${server.baseUrl}/ui/signature_processes/${who.flow.token}?eid=ok`);
    }
  }, 120_000);

  it("signs at level eid, and the level reaches sign_data.identity and the callback", async () => {
    const base = server.baseUrl;
    const provider = op!;

    const person = signer({ signChallenges: ["eid"] });
    const created = await api.create({ signers: [person], description: "Contrato con eID", urlCallback: callbackUrl });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id, msg } = (await created.json()) as { id: string; msg: string };
    const flow = signerHttp(base, msg);
    expect((await flow.identify(person.doc_id)).status).toBe(200);
    provider.addAccount(`ana-${person.doc_id}`, { document_number: person.doc_id, given_name: "Ana María", family_name: "Quispe Rojas" });

    const started = await fetch(`${base}/api/signer/${flow.token}/eid`, { method: "POST", headers: { cookie: flow.cookie() } });
    expect(started.status, await started.clone().text()).toBe(200);
    const loginCookie = started.headers.getSetCookie().map((c) => c.split(";")[0]).find((c) => c.startsWith("fv_eid="))!;
    const back = await signInAtProviderOverHttp({ authorizationUrl: ((await started.json()) as { url: string }).url, issuer: provider.issuer, login: `ana-${person.doc_id}` });
    expect(back.pathname).toBe("/ui/signature_processes/eid/callback");
    const finished = await fetch(back, { redirect: "manual", headers: { cookie: loginCookie } });
    expect(finished.status, await finished.clone().text()).toBe(303);
    expect(finished.headers.get("location")).toBe(`${base}/ui/signature_processes/${flow.token}?eid=ok`);

    // the provider's names are the signer's names: others are refused
    expect((await flow.confirmNames("Pedro", "Impostor")).status).toBe(400);
    expect((await flow.confirmNames("Ana María", "Quispe Rojas")).status).toBe(200);
    const listed = async () => ((await (await api.list({ process_id: id })).json()) as { signatureProcesses: { status: string; documents: { id: string; pages: number; url: string }[]; signers: { sign_data: { identity?: unknown } }[] }[] }).signatureProcesses[0];
    await flow.showEveryPage((await listed()).documents);
    const signed = await flow.sign();
    expect(signed.status, await signed.clone().text()).toBe(200);

    const record = await listed();
    expect(record.status).toBe("signed");
    expect(record.signers[0].sign_data.identity).toMatchObject({ level: "eid", method: "oidc", provider: provider.issuer });
    // /api/verify names the provider that vouched, from our record of this signature, next to the level and the organization
    const pdf = new Uint8Array(await (await fetch(record.documents[0].url)).arrayBuffer());
    const form = new FormData();
    form.append("file", new Blob([pdf as BlobPart], { type: "application/pdf" }), "documento.pdf");
    const verified = (await (await fetch(`${base}/api/verify`, { method: "POST", body: form })).json()) as { signatures: { identityLevel?: string; signerOrganization?: string; eidIssuer?: string }[] };
    expect(verified.signatures[0]).toMatchObject({ identityLevel: "eid", eidIssuer: provider.issuer, signerOrganization: expect.stringMatching(/\S/) });
    const delivered = await waitFor(async () => receiver.received.find((body) => body.id === id && body.status === "signed"), 60_000);
    expect(delivered.signers[0].sign_data.identity).toMatchObject({ level: "eid", method: "oidc", provider: provider.issuer });
  }, 300_000);
});
