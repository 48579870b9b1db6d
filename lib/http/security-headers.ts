/**
 * The security headers of every response, from one place (proxy.ts). Scripts need the request's
 * nonce (Next.js puts it on its own scripts); inline style attributes stay allowed because React
 * style props produce them and they cannot run code.
 */
export function securityHeaders(input: { nonce: string; pathname: string; publicUrl?: string; frameAncestors?: string; development?: boolean }): Record<string, string> {
  const signerPage = input.pathname.startsWith("/ui/");
  // only the signer pages may be embedded, and only by the origins an operator lists
  const ancestors = signerPage && input.frameAncestors ? input.frameAncestors : "'none'";
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${input.nonce}' 'strict-dynamic' 'wasm-unsafe-eval'${input.development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "media-src 'self' blob:",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${ancestors}`,
  ].join("; ");
  const headers: Record<string, string> = {
    "content-security-policy": csp,
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "permissions-policy": `camera=${signerPage ? "(self)" : "()"}, microphone=(), geolocation=()`,
    "cross-origin-opener-policy": "same-origin",
  };
  if (ancestors === "'none'") headers["x-frame-options"] = "DENY";
  if (input.publicUrl?.startsWith("https://")) headers["strict-transport-security"] = "max-age=31536000; includeSubDomains";
  // API answers and signer pages carry documents, tokens and personal data: never cached anywhere
  if (input.pathname.startsWith("/api/") || signerPage) headers["cache-control"] = "no-store";
  return headers;
}
