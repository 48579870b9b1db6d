import * as oidc from "openid-client";
import { guardedFetch, ResponseTooLargeError } from "@/lib/outbound-http/guarded-fetch";
import { BlockedTargetError } from "@/lib/outbound-http/post-webhook";
import { EidFailure, type EidFailureReason } from "./eid-failure";
import { isLoopbackIssuer } from "./loopback-issuer";

/** What the relying party needs of the organization's provider (the secret already decrypted). */
export type EidProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  documentNumberClaim: string;
  givenNameClaim: string;
  familyNameClaim: string;
  /** The platform admin allowed this organization private-network targets (callbacks, CRLs, this provider). */
  allowPrivate: boolean;
};

/** The signer's identity as the provider vouched for it. */
export type EidIdentity = { issuer: string; subject: string; documentNumber: string; givenName: string; familyName: string };

/** Every request to the provider (discovery, JWKS, token, userinfo) gives up after this many seconds. */
export const EID_TIMEOUT_SECONDS = 10;

/** A provider's answer (discovery document, JWKS, token) larger than this is refused unread. */
export const EID_MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * Discovery of the provider's metadata through openid-client (RFC 8414 / OIDC Discovery). The
 * issuer is a tenant admin's input, so every request (discovery, JWKS, token, userinfo) goes
 * through the outbound guard, and the endpoints the document names are checked before any is used.
 */
export async function discoverEidProvider(provider: EidProvider): Promise<oidc.Configuration> {
  const fetcher = guardedFetch({ allowPrivate: provider.allowPrivate, maxBytes: EID_MAX_RESPONSE_BYTES, timeoutMs: EID_TIMEOUT_SECONDS * 1000, userAgent: "FirmaViva-eID/1" });
  const insecure = provider.allowPrivate && isLoopbackIssuer(provider.issuer);
  try {
    if (!endpointAllowed(provider.issuer, provider.allowPrivate)) throw new BlockedTargetError(provider.issuer);
    const config = await oidc.discovery(new URL(provider.issuer), provider.clientId, { client_secret: provider.clientSecret }, oidc.ClientSecretBasic(provider.clientSecret), {
      timeout: EID_TIMEOUT_SECONDS,
      [oidc.customFetch]: fetcher as never,
      ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
    const metadata = config.serverMetadata();
    for (const endpoint of [metadata.token_endpoint, metadata.jwks_uri, metadata.userinfo_endpoint]) {
      if (endpoint && !endpointAllowed(endpoint, provider.allowPrivate)) throw new BlockedTargetError(endpoint);
    }
    // by default an id_token from the token endpoint is trusted on TLS alone, without its signature
    // (OIDC Core 3.1.3.7); the evidence must rest on the provider's signature, so check it against the JWKS
    oidc.enableNonRepudiationChecks(config);
    return config;
  } catch (error) {
    throw new EidFailure(reasonOf(error));
  }
}

/** Authorization code flow with PKCE (S256), state and nonce: the URL the signer's browser goes to. */
export async function eidAuthorizationUrl(
  config: oidc.Configuration,
  provider: EidProvider,
  input: { redirectUri: string; state: string; nonce: string; codeVerifier: string },
): Promise<URL> {
  return oidc.buildAuthorizationUrl(config, {
    redirect_uri: input.redirectUri,
    scope: provider.scopes,
    state: input.state,
    nonce: input.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(input.codeVerifier),
    code_challenge_method: "S256",
  });
}

/**
 * The provider came back: openid-client checks state, exchanges the code with the PKCE verifier and
 * verifies the id_token (signature against the JWKS, iss, aud, exp, nonce); each failure becomes an
 * EidFailure with its own reason. Claims the id_token lacks are read from userinfo (same subject).
 */
export async function exchangeEidCode(
  config: oidc.Configuration,
  provider: EidProvider,
  input: { callbackUrl: URL; expectedState: string; nonce: string; codeVerifier: string },
): Promise<EidIdentity> {
  const providerError = input.callbackUrl.searchParams.get("error");
  if (providerError) throw new EidFailure(providerError === "access_denied" || providerError === "login_required" ? "denied" : "provider_error");
  try {
    const tokens = await oidc.authorizationCodeGrant(config, input.callbackUrl, {
      pkceCodeVerifier: input.codeVerifier,
      expectedState: input.expectedState,
      expectedNonce: input.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) throw new EidFailure("provider_error");
    const wanted = [provider.documentNumberClaim, provider.givenNameClaim, provider.familyNameClaim];
    const claims: Record<string, unknown> = wanted.every((name) => typeof idClaims[name] === "string")
      ? idClaims
      : { ...(await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub)), ...idClaims };
    const [documentNumber, givenName, familyName] = wanted.map((name) => claims[name]);
    if (![documentNumber, givenName, familyName].every((value) => typeof value === "string" && value.trim().length > 0 && value.length <= 200)) {
      throw new EidFailure("claims_missing");
    }
    return { issuer: idClaims.iss, subject: idClaims.sub, documentNumber: String(documentNumber).trim(), givenName: String(givenName).trim(), familyName: String(familyName).trim() };
  } catch (error) {
    if (error instanceof EidFailure) throw error;
    throw new EidFailure(reasonOf(error));
  }
}

/** The server-side endpoints a discovery document names: https, or loopback http where private targets are allowed. */
function endpointAllowed(endpoint: string, allowPrivate: boolean): boolean {
  const url = URL.parse(endpoint);
  if (!url) return false;
  return url.protocol === "https:" || (allowPrivate && isLoopbackIssuer(url.href));
}

/** openid-client / oauth4webapi error codes to our reasons (the claim that failed is in the cause). */
export function reasonOf(error: unknown): EidFailureReason {
  // a refused target answers like one that is down: the answer must not tell an internal port apart
  if (error instanceof BlockedTargetError || error instanceof ResponseTooLargeError) return "unreachable";
  const wrapped = (error as { cause?: unknown })?.cause;
  if (wrapped instanceof BlockedTargetError || wrapped instanceof ResponseTooLargeError) return "unreachable";
  const code = (error as { code?: string })?.code;
  const cause = (error as { cause?: { message?: string; code?: string; cause?: { claim?: string } } })?.cause;
  const claim = cause?.cause?.claim;
  if (code === "OAUTH_TIMEOUT" || error instanceof TypeError || code === "OAUTH_RESPONSE_IS_NOT_CONFORM" || code === "OAUTH_RESPONSE_IS_NOT_JSON") {
    return "unreachable";
  }
  if (error instanceof oidc.AuthorizationResponseError) return error.error === "access_denied" ? "denied" : "provider_error";
  if (code === "OAUTH_JWT_TIMESTAMP_CHECK_FAILED") return "expired";
  if (code === "OAUTH_JWT_CLAIM_COMPARISON_FAILED") {
    if (claim === "nonce") return "nonce";
    if (claim === "iss") return "issuer";
    if (claim === "aud" || claim === "azp") return "audience";
    return "provider_error";
  }
  if (code === "OAUTH_KEY_SELECTION_FAILED" || (code === "OAUTH_INVALID_RESPONSE" && /signature/i.test(cause?.message ?? ""))) return "signature";
  if (code === "OAUTH_INVALID_RESPONSE" && /"state"/.test(cause?.message ?? "")) return "state";
  return "provider_error";
}
