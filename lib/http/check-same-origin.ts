import { AppError } from "@/lib/errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses a state-changing request that a browser sent on behalf of another site (CSRF): its
 * `Origin` must be this server's (PUBLIC_URL, or the origin the request was addressed to), and
 * without `Origin`, `Sec-Fetch-Site` must not say cross-site. A request with neither header did not
 * come from a browser page, so no ambient cookie was lent to anyone. Server actions have Next's own check.
 */
export function checkSameOrigin(request: Request, publicUrl: string | undefined): void {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return;
  const origin = request.headers.get("origin");
  if (origin !== null) {
    const allowed = new Set([new URL(request.url).origin, ...(publicUrl ? [new URL(publicUrl).origin] : [])]);
    if (!allowed.has(origin)) throw new AppError("FORBIDDEN", `origen no permitido: ${origin.slice(0, 100)}`, "origin");
    return;
  }
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") throw new AppError("FORBIDDEN", `solicitud de otro sitio (${site.slice(0, 20)})`, "origin");
}
