import { and, count, eq, gt } from "drizzle-orm";
import * as oidc from "openid-client";
import { AppError } from "@/lib/errors";
import type { Db } from "@/db/client";
import { signerEidLogins } from "@/db/schema";
import { EidFailure } from "@/lib/identity-assurance/eid/eid-failure";
import { loadEidProvider } from "@/lib/identity-assurance/eid/find-identity-provider";
import { discoverEidProvider, eidAuthorizationUrl } from "@/lib/identity-assurance/eid/oidc-relying-party";
import type { SignerClient } from "./describe-signer-client";
import { EID_LOGIN_SECONDS } from "./eid-login-cookie";
import { claimIdentityTry } from "./claim-identity-try";
import { recordEidFailure } from "./record-eid-result";
import { actingSigner, resolveSigningLink } from "./resolve-signing-link";
import { SignerFlowError } from "./signer-flow-error";

/** Logins a signer may start per 10 minutes (each is a provider round trip and a stored row). */
export const MAX_EID_LOGINS_PER_WINDOW = 10;

export type StartedEidLogin = { loginId: string; authorizationUrl: string } | { failed: EidFailure["reason"]; attemptsLeft: number; locked: boolean };

/**
 * The signer pressed "Identificarme con <provider>": a fresh state, nonce and PKCE verifier are
 * stored for this signer, and the browser is sent to the provider. A provider that cannot be
 * reached (10 s) counts as a failed identity try, like every other eID failure.
 */
export async function startEidLogin(
  input: { token: string; signerId: string; /** The signer session starting the login: the eid level it yields is valid there only. */ sessionId: string; client?: SignerClient },
  deps: { db: Db; secretKey: Uint8Array; redirectUri: string },
): Promise<StartedEidLogin> {
  const context = await resolveSigningLink({ token: input.token }, deps.db);
  const signer = actingSigner(context, input.signerId);
  if (!signer.signChallenges.includes("eid")) throw new SignerFlowError("eid_not_required");
  if (signer.lockedAt) throw new SignerFlowError("locked");
  const provider = await loadEidProvider({ organizationId: context.process.organizationId }, deps);
  if (!provider) throw new SignerFlowError("eid_unavailable");
  let config: oidc.Configuration;
  try {
    config = await discoverEidProvider(provider);
  } catch (error) {
    if (!(error instanceof EidFailure)) throw error;
    const attempt = await claimIdentityTry(signer.id, deps.db);
    const outcome = await recordEidFailure({ signer, processId: context.process.id, organizationId: context.process.organizationId, attempt, client: input.client, reason: error.reason }, deps.db);
    return { failed: error.reason, ...outcome };
  }
  // starting is free (the callback counts the try), so it is bounded: stored logins stay few per signer
  const [recent] = await deps.db
    .select({ started: count() })
    .from(signerEidLogins)
    .where(and(eq(signerEidLogins.signerId, signer.id), gt(signerEidLogins.createdAt, new Date(Date.now() - EID_LOGIN_SECONDS * 1000))));
  if (recent.started >= MAX_EID_LOGINS_PER_WINDOW) throw new AppError("RATE_LIMITED", "Demasiados inicios de sesión con el proveedor de identidad; espere unos minutos.");
  const secrets = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
  const [login] = await deps.db.insert(signerEidLogins).values({ signerId: signer.id, linkId: context.link.id, sessionId: input.sessionId, ...secrets }).returning({ id: signerEidLogins.id });
  const url = await eidAuthorizationUrl(config, provider, { redirectUri: deps.redirectUri, ...secrets });
  return { loginId: login.id, authorizationUrl: url.href };
}
