import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { signerEidLogins } from "@/db/schema";
import { EidFailure, type EidFailureReason } from "@/lib/identity-assurance/eid/eid-failure";
import { loadEidProvider } from "@/lib/identity-assurance/eid/find-identity-provider";
import { discoverEidProvider, exchangeEidCode } from "@/lib/identity-assurance/eid/oidc-relying-party";
import { ZPersonNames } from "@/lib/identity-registry/schemas";
import { normalizeDocId } from "@/lib/identity-registry/check-national-id";
import { secretsMatch } from "@/lib/crypto/secrets-match";
import { linkTokenOf } from "@/lib/processes/link-token";
import type { SignerClient } from "./describe-signer-client";
import { EID_LOGIN_SECONDS } from "./eid-login-cookie";
import { claimIdentityTry } from "./claim-identity-try";
import { recordEidFailure, recordEidSuccess } from "./record-eid-result";
import { actingSigner, resolveSigningLink } from "./resolve-signing-link";
import { SignerFlowError } from "./signer-flow-error";

/**
 * Where the callback sends the browser: back to the link's page, saying how the login ended; or
 * nowhere, when the browser holds no live login (`no_login`) or the callback's state is not the one
 * of the login its cookie names (`foreign_state`: that login stays open for the provider's real answer).
 */
export type FinishedEidLogin = { token: string; outcome: "ok" | "locked" | "problem" | EidFailureReason } | { token: null; refused: "no_login" | "foreign_state" };

/**
 * The provider redirected the signer back. The callback's state must be the one of the login named
 * by this browser's cookie, or nothing happens: a hostile page can send the browser here (the cookie
 * is SameSite=Lax) but cannot know the state, so it can neither burn the login nor spend a try.
 * Then the login is consumed (single use, whatever the outcome), one identity try is counted, and
 * openid-client checks state, PKCE, and the id_token (JWKS signature, iss, aud, exp, nonce); the
 * provider's document number must equal the signer's doc_id.
 */
export async function finishEidLogin(
  input: { loginId: string | null; callbackUrl: URL; client?: SignerClient },
  deps: { db: Db; secretKey: Uint8Array },
): Promise<FinishedEidLogin> {
  if (!input.loginId) return { token: null, refused: "no_login" };
  const [login] = await deps.db.select().from(signerEidLogins).where(eq(signerEidLogins.id, input.loginId)).limit(1);
  if (!login) return { token: null, refused: "no_login" };
  if (!secretsMatch(input.callbackUrl.searchParams.get("state"), login.state)) return { token: null, refused: "foreign_state" };
  const token = linkTokenOf(login.linkId, deps.secretKey);
  const [consumed] = await deps.db
    .update(signerEidLogins)
    .set({ consumedAt: new Date() })
    .where(and(eq(signerEidLogins.id, login.id), isNull(signerEidLogins.consumedAt), gt(signerEidLogins.createdAt, new Date(Date.now() - EID_LOGIN_SECONDS * 1000))))
    .returning({ id: signerEidLogins.id });
  try {
    const context = await resolveSigningLink({ token }, deps.db);
    const signer = actingSigner(context, login.signerId);
    // a reload of the callback after success is not a new try
    if (!consumed && signer.identity?.level === "eid" && signer.identity.session === login.sessionId) return { token, outcome: "ok" };
    const attempt = await claimIdentityTry(signer.id, deps.db);
    const counted = { signer, processId: context.process.id, organizationId: context.process.organizationId, attempt, client: input.client };
    try {
      // a used or stale login belongs to no live try: a replay is counted, as this browser made it
      if (!consumed) throw new EidFailure("state");
      const provider = await loadEidProvider({ organizationId: context.process.organizationId }, deps);
      if (!provider) throw new SignerFlowError("eid_unavailable");
      const config = await discoverEidProvider(provider);
      const identity = await exchangeEidCode(config, provider, { callbackUrl: input.callbackUrl, expectedState: login.state, nonce: login.nonce, codeVerifier: login.codeVerifier });
      if (normalizeDocId(identity.documentNumber) !== signer.docId) throw new EidFailure("other_person");
      if (!ZPersonNames.safeParse({ given_name: identity.givenName, family_name: identity.familyName }).success) throw new EidFailure("claims_missing");
      await recordEidSuccess({ ...counted, identity, sessionId: login.sessionId ?? undefined }, deps.db);
      return { token, outcome: "ok" };
    } catch (error) {
      if (!(error instanceof EidFailure)) throw error;
      const { locked } = await recordEidFailure({ ...counted, reason: error.reason }, deps.db);
      return { token, outcome: locked ? "locked" : error.reason };
    }
  } catch (error) {
    // expired link, locked signer, concluded process…: the link's page says which
    if (error instanceof SignerFlowError) return { token, outcome: "problem" };
    throw error;
  }
}
