import http from "node:http";
import type { AddressInfo } from "node:net";
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from "jose";

export type MintOverrides = { iss?: string; aud?: string; exp?: number; nonce?: string; key?: CryptoKey; claims?: Record<string, unknown> };

/**
 * A minimal OpenID provider for unit tests whose token endpoint hands out whatever id_token the
 * test minted (with `jose`), so each check openid-client performs can be fed a token that breaks
 * exactly one rule. The e2e suite uses a real provider (e2e/fixtures/oidc-test-provider.ts).
 */
export async function startMintedTokenProvider(clientId: string) {
  const pair = await generateKeyPair("RS256");
  const strangerKey = (await generateKeyPair("RS256")).privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  let nextIdToken = "";
  const server = http.createServer((request, response) => {
    const json = (body: unknown) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (request.url === "/.well-known/openid-configuration") {
      return json({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
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
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** An id_token for the given nonce, valid unless an override breaks one rule; the token endpoint answers it next. */
  async function mint(nonce: string, overrides: MintOverrides = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    nextIdToken = await new SignJWT({ nonce: overrides.nonce ?? nonce, document_number: "45678912", given_name: "ANA", family_name: "QUISPE", ...overrides.claims })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setIssuer(overrides.iss ?? issuer)
      .setAudience(overrides.aud ?? clientId)
      .setSubject("person-1")
      .setIssuedAt(now)
      .setExpirationTime(overrides.exp ?? now + 300)
      .sign(overrides.key ?? pair.privateKey);
    return nextIdToken;
  }
  return { issuer, strangerKey, mint, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
