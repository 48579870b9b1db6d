import { AppError } from "@/lib/errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Why a state-changing request is one a browser sent on behalf of another site (CSRF), or null: its
 * `Origin` must be this server's (PUBLIC_URL, or the origin the request was addressed to), and
 * without `Origin`, `Sec-Fetch-Site` must not say cross-site. A request with neither header did not
 * come from a browser page, so no ambient cookie was lent to anyone. Server actions have Next's own check.
 */
export function crossSiteRefusal(request: Request, publicUrl: string | undefined): string | null {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
  const origin = request.headers.get("origin");
  if (origin !== null) {
    const allowed = new Set([new URL(request.url).origin, ...(publicUrl ? [new URL(publicUrl).origin] : [])]);
    return allowed.has(origin) ? null : `origen no permitido: ${origin.slice(0, 100)}`;
  }
  const site = request.headers.get("sec-fetch-site");
  return site !== null && site !== "same-origin" && site !== "none" ? `solicitud de otro sitio (${site.slice(0, 20)})` : null;
}

/** Staff routes: a cross-site state-changing request is a 403 in the caller's error format. */
export function checkSameOrigin(request: Request, publicUrl: string | undefined): void {
  const refusal = crossSiteRefusal(request, publicUrl);
  if (refusal) throw new AppError("FORBIDDEN", refusal, "origin");
}
