import { clientAddress } from "@/lib/auth/throttle-logins";

/** The device a signer acted from, as the evidence records it. */
export type SignerClient = { address: string; userAgent: string };

const MAX_USER_AGENT = 400;

/** Address (as the nearest proxy appended it) and user agent of a signer's request, bounded. */
export function describeSignerClient(request: Request): SignerClient {
  const userAgent = (request.headers.get("user-agent") ?? "").replace(/[\u0000-\u001f\u007f]/g, " ").trim();
  return { address: clientAddress(request), userAgent: userAgent.slice(0, MAX_USER_AGENT) || "unknown" };
}
