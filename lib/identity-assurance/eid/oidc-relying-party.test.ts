import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from "jose";
import { discoverEidProvider, exchangeEidCode, type EidProvider } from "./oidc-relying-party";
import type { EidFailureReason } from "./eid-failure";

// A minimal provider whose token endpoint hands out whatever id_token the test minted, so each
// verification openid-client performs can be fed a token that breaks exactly one rule.
let server: http.Server;
let issuer: string;
let providerKey: CryptoKey;
let strangerKey: CryptoKey;
let nextIdToken = "";
const CLIENT_ID = "firmaviva-test";
const NONCE = "nonce-of-this-try";
const STATE = "state-of-this-try";

beforeAll(async () => {
  const pair = await generateKeyPair("RS256");
  providerKey = pair.privateKey;
  strangerKey = (await generateKeyPair("RS256")).privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  server = http.createServer((request, response) => {
    const json = (body: unknown) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (request.url === "/.well-known/openid-configuration") {
      return json({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        userinfo_endpoint: `${issuer}/me`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
      });
    }
    if (request.url === "/jwks") return json({ keys: [jwk] });
    if (request.url === "/token") {
      request.resume();
      return request.on("end", () => json({ access_token: "at", token_type: "Bearer", expires_in: 60, id_token: nextIdToken }));
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const provider = (): EidProvider => ({
  issuer,
  clientId: CLIENT_ID,
  clientSecret: "s3cret",
  scopes: "openid profile",
  documentNumberClaim: "document_number",
  givenNameClaim: "given_name",
  familyNameClaim: "family_name",
});

type Mint = { iss?: string; aud?: string; exp?: number; nonce?: string; key?: CryptoKey };
async function mint(overrides: Mint = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ nonce: overrides.nonce ?? NONCE, document_number: "45678912", given_name: "ANA", family_name: "QUISPE" })
    .setProtectedHeader({ alg: "RS256", kid: "k1" })
    .setIssuer(overrides.iss ?? issuer)
    .setAudience(overrides.aud ?? CLIENT_ID)
    .setSubject("person-1")
    .setIssuedAt(now)
    .setExpirationTime(overrides.exp ?? now + 300)
    .sign(overrides.key ?? providerKey);
}

async function exchange(idToken: string, state = STATE) {
  nextIdToken = idToken;
  const config = await discoverEidProvider(provider());
  return exchangeEidCode(config, provider(), { callbackUrl: new URL(`http://127.0.0.1/cb?code=the-code&state=${state}`), expectedState: STATE, nonce: NONCE, codeVerifier: "v".repeat(43) });
}

describe("eID id_token checks (openid-client)", () => {
  it("accepts a genuine id_token and reads the configured claims", async () => {
    await expect(exchange(await mint())).resolves.toEqual({ issuer, subject: "person-1", documentNumber: "45678912", givenName: "ANA", familyName: "QUISPE" });
  });

  const forged: [string, () => Promise<string>, EidFailureReason][] = [
    ["another issuer", () => mint({ iss: "https://attacker.example" }), "issuer"],
    ["another audience", () => mint({ aud: "some-other-client" }), "audience"],
    ["an expired token", () => mint({ exp: Math.floor(Date.now() / 1000) - 3600 }), "expired"],
    ["another nonce", () => mint({ nonce: "replayed-nonce" }), "nonce"],
    ["a signature by a key not in the JWKS", () => mint({ key: strangerKey }), "signature"],
  ];
  it.each(forged)("refuses %s", async (_, token, reason) => {
    await expect(exchange(await token())).rejects.toMatchObject({ name: "EidFailure", reason });
  });

  it("refuses a callback whose state is not this try's", async () => {
    await expect(exchange(await mint(), "someone-elses-state")).rejects.toMatchObject({ reason: "state" });
  });

  it("maps a provider error answer (the signer cancelled) to denied", async () => {
    const config = await discoverEidProvider(provider());
    const callbackUrl = new URL(`http://127.0.0.1/cb?error=access_denied&state=${STATE}`);
    await expect(exchangeEidCode(config, provider(), { callbackUrl, expectedState: STATE, nonce: NONCE, codeVerifier: "v".repeat(43) })).rejects.toMatchObject({ reason: "denied" });
  });

  it("says unreachable when nothing listens at the issuer", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(discoverEidProvider({ ...provider(), issuer: `http://127.0.0.1:${port}` })).rejects.toMatchObject({ reason: "unreachable" });
  });

  it("gives up on a provider that never answers (10 s timeout) and says unreachable", async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const started = Date.now();
      await expect(discoverEidProvider({ ...provider(), issuer: `http://127.0.0.1:${(silent.address() as AddressInfo).port}` })).rejects.toMatchObject({ reason: "unreachable" });
      expect(Date.now() - started).toBeGreaterThanOrEqual(9_000);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 40_000);

  it("refuses plain http for a remote issuer (only loopback may skip TLS)", async () => {
    await expect(discoverEidProvider({ ...provider(), issuer: "http://idp.example.org" })).rejects.toMatchObject({ name: "EidFailure" });
  });
});
