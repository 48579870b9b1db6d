import { NextResponse, type NextRequest } from "next/server";
import { securityHeaders } from "@/lib/http/security-headers";
import { refuseOversizedServerAction } from "@/lib/http/server-action-body-limit";

/**
 * Every page request gets a fresh CSP nonce and the security headers (lib/http/security-headers.ts);
 * a server action post only has its declared size checked.
 */
export function proxy(request: NextRequest) {
  if (request.headers.has("next-action")) return refuseOversizedServerAction(request) ?? NextResponse.next();
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const headers = securityHeaders({
    nonce,
    pathname: request.nextUrl.pathname,
    publicUrl: process.env.PUBLIC_URL,
    frameAncestors: process.env.FRAME_ANCESTORS,
    development: process.env.NODE_ENV === "development",
  });
  // Next.js reads the nonce for its own scripts from the request's policy header
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", headers["content-security-policy"]);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

// Pages and server action posts only. A proxy makes Next buffer (and past its limit, truncate) every
// request body it sees, so uploads never go through it: API routes get their headers from
// next.config.js. Server action posts (header next-action) answer with data, not documents that need
// a nonce; they pass here so that an oversized one is a 413, and their bodies are small by that rule.
export const config = {
  matcher: [
    { source: "/((?!api/|_next/static|_next/image|favicon.ico).*)", missing: [{ type: "header", key: "next-action" }] },
    { source: "/((?!api/|_next/static|_next/image|favicon.ico).*)", has: [{ type: "header", key: "next-action" }] },
  ],
};
