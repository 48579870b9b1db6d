import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discoverEidProvider, exchangeEidCode, type EidProvider } from "./oidc-relying-party";
import type { EidFailureReason } from "./eid-failure";
import { startMintedTokenProvider, type MintOverrides } from "./testing/minted-token-provider";

let op: Awaited<ReturnType<typeof startMintedTokenProvider>>;
let issuer: string;
const CLIENT_ID = "firmaviva-test";
const NONCE = "nonce-of-this-try";
const STATE = "state-of-this-try";

beforeAll(async () => {
  op = await startMintedTokenProvider(CLIENT_ID);
  issuer = op.issuer;
});
afterAll(() => op.close());

const provider = (): EidProvider => ({
  issuer,
  clientId: CLIENT_ID,
  clientSecret: "s3cret",
  scopes: "openid profile",
  documentNumberClaim: "document_number",
  givenNameClaim: "given_name",
  familyNameClaim: "family_name",
  // the minted provider listens on loopback: this organization was allowed private targets
  allowPrivate: true,
});

const mint = (overrides: MintOverrides = {}) => op.mint(NONCE, overrides);

async function exchange(_minted: string, state = STATE) {
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
    ["a signature by a key not in the JWKS", () => mint({ key: op.strangerKey }), "signature"],
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

  describe("the outbound guard (a tenant admin's issuer is not a request forger)", () => {
    let hits = 0;
    let counting: http.Server;
    let base = "";
    let answer: (res: http.ServerResponse) => void = (res) => res.end("{}");
    beforeAll(async () => {
      counting = http.createServer((_req, res) => {
        hits++;
        answer(res);
      });
      await new Promise<void>((resolve) => counting.listen(0, "127.0.0.1", resolve));
      base = `127.0.0.1:${(counting.address() as AddressInfo).port}`;
    });
    afterAll(() => {
      counting.closeAllConnections();
      counting.close();
    });

    it.each([
      ["plain http to loopback", () => `http://${base}`],
      ["https to a name that resolves to loopback", () => `https://${base.replace("127.0.0.1", "localhost")}`],
      ["https to a loopback address", () => `https://${base}`],
    ])("never calls %s unless the organization may reach private targets", async (_name, issuerOf) => {
      const before = hits;
      await expect(discoverEidProvider({ ...provider(), issuer: issuerOf(), allowPrivate: false })).rejects.toMatchObject({ reason: "unreachable" });
      expect(hits).toBe(before);
    });

    it("refuses a discovery document that names a plain-http or unparsable token endpoint", async () => {
      const metadata = (tokenEndpoint: string) => (res: http.ServerResponse) =>
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ issuer: `http://${base}`, authorization_endpoint: `http://${base}/auth`, token_endpoint: tokenEndpoint, jwks_uri: `http://${base}/jwks` }));
      for (const endpoint of ["http://169.254.169.254/latest/meta-data", "http://10.0.0.5/token"]) {
        answer = metadata(endpoint);
        // allowed private targets still allow plain http to loopback only
        await expect(discoverEidProvider({ ...provider(), issuer: `http://${base}` })).rejects.toMatchObject({ reason: "unreachable" });
      }
      answer = metadata(`http://${base}/token`);
      await expect(discoverEidProvider({ ...provider(), issuer: `http://${base}` })).resolves.toBeDefined();
    });

    it("caps the provider's answers at 1 MB", async () => {
      answer = (res) => res.writeHead(200, { "content-type": "application/json" }).end(`{"issuer":"${"x".repeat(1024 * 1024)}"}`);
      await expect(discoverEidProvider({ ...provider(), issuer: `http://${base}` })).rejects.toMatchObject({ reason: "unreachable" });
    });
  });
});
