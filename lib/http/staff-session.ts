import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { getServices } from "@/lib/runtime/services";
import { recordStaffLogin } from "@/lib/auth/record-staff-login";
import { authenticateStaff } from "@/lib/auth/authenticate-staff";
import { clientAddress } from "@/lib/config/client-address";
import { RateLimitedError } from "@/lib/auth/throttle-logins";
import { openStaffSession, revokeStaffSession } from "@/lib/auth/staff-sessions";
import { logError } from "@/lib/runtime/log";

const ZLogin = z.object({ email: z.string().trim().min(1), password: z.string().min(1) });

class InvalidLogin extends CredentialsSignin {
  code = "invalid_login";
}

class TooManyLogins extends CredentialsSignin {
  code = "rate_limited";
}

/**
 * Staff sessions (next-auth, JWT strategy). next-auth lives under /api/session because
 * /api/auth/token and /api/auth/login belong to the seed APIs. Configuration is resolved per
 * request so that `next build` never needs the database or the secret.
 */
export const { handlers, auth, signIn, signOut } = NextAuth(async () => {
  const { config, db } = await getServices();
  return {
    basePath: "/api/session",
    trustHost: true,
    secret: config.secretKey.toString("hex"),
    session: { strategy: "jwt", maxAge: 8 * 60 * 60 },
    pages: { signIn: "/login" },
    logger: {
      // A wrong password is an expected outcome, not a server error worth a stack trace.
      error(error: Error) {
        if (error.name === "CredentialsSignin" || (error as { type?: string }).type === "CredentialsSignin") return;
        logError("auth error", new Error(error.message));
      },
    },
    providers: [
      Credentials({
        credentials: { email: {}, password: {} },
        async authorize(raw, request) {
          const parsed = ZLogin.safeParse(raw);
          if (!parsed.success) throw new InvalidLogin();
          let identity;
          try {
            identity = await authenticateStaff({ email: parsed.data.email, password: parsed.data.password, address: clientAddress(request, config.trustedProxies) }, db);
          } catch (error) {
            if (error instanceof RateLimitedError) throw new TooManyLogins();
            throw error;
          }
          await recordStaffLogin({ email: parsed.data.email, identity }, db);
          if (!identity) throw new InvalidLogin();
          // the cookie only names a server-side session; that row is what sign-out and password changes end
          return { id: identity.userId, email: identity.email, sid: await openStaffSession(identity.userId, db) };
        },
      }),
    ],
    events: {
      // next-auth's own POST /api/session/signout ends the server-side session too, not only the cookie
      async signOut(message) {
        const sessionId = "token" in message ? message.token?.sid : undefined;
        if (typeof sessionId === "string") await revokeStaffSession(sessionId, db);
      },
    },
    callbacks: {
      jwt({ token, user }) {
        if (user?.id) token.uid = user.id;
        const sid = (user as { sid?: string } | undefined)?.sid;
        if (sid) token.sid = sid;
        return token;
      },
      session({ session, token }) {
        return { ...session, userId: typeof token.uid === "string" ? token.uid : undefined, sessionId: typeof token.sid === "string" ? token.sid : undefined };
      },
    },
  };
});
