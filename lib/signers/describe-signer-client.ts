import { clientAddress, type TrustedProxies } from "@/lib/config/client-address";

/** The device a signer acted from, as the evidence records it. */
export type SignerClient = { address: string; userAgent: string };

const MAX_USER_AGENT = 400;

/** Address (a valid IP seen across trusted proxies only, or "unknown") and user agent of a signer's request, bounded. */
export function describeSignerClient(request: Request, trustedProxies: TrustedProxies): SignerClient {
  const userAgent = (request.headers.get("user-agent") ?? "").replace(/[\u0000-\u001f\u007f]/g, " ").trim();
  return { address: clientAddress(request, trustedProxies), userAgent: userAgent.slice(0, MAX_USER_AGENT) || "unknown" };
}
