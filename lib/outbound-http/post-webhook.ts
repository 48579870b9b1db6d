import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";

/** Thrown when the target resolves to an address the organization may not call. */
export class BlockedTargetError extends Error {
  constructor(address: string) {
    super(`destino no permitido: ${address} es una dirección privada, de loopback o de enlace local`);
    this.name = "BlockedTargetError";
  }
}

const blocked = new net.BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) blocked.addSubnet(network, prefix, "ipv4");
// The IPv6 forms that carry an IPv4 address (compatible, translated, 6to4, NAT64) reach whatever that
// address is, so they are refused whole; fec0::/10 is the deprecated site-local range, still routed inside some networks.
for (const [network, prefix] of [
  ["::", 96], ["::ffff:0:0:0", 96], ["2002::", 16], ["64:ff9b::", 96], ["64:ff9b:1::", 48],
  ["fc00::", 7], ["fe80::", 10], ["fec0::", 10], ["ff00::", 8],
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** Loopback, private, link-local, multicast, reserved, or an IPv6 form that embeds an IPv4 address. */
export function isPrivateAddress(address: string): boolean {
  // net.BlockList judges ::ffff:a.b.c.d (and ::ffff:7f00:1) by the IPv4 rules; ipaddr.js is not used
  // here because it reads ::a.b.c.d as IPv4-mapped
  const family = net.isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 6 ? "ipv6" : "ipv4");
}

type Lookup = NonNullable<http.RequestOptions["lookup"]>;

/** A DNS lookup that refuses private answers: the address checked is the address connected to (no rebinding window). */
export function guardedLookup(allowPrivate: boolean): Lookup {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error);
      const bad = addresses.find((a) => isPrivateAddress(a.address));
      if (bad && !allowPrivate) return callback(new BlockedTargetError(bad.address));
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  }) as Lookup;
}

/**
 * POSTs a JSON body with a hard timeout, without following redirects. Private targets are refused
 * unless allowed (literal IPs are checked here because Node skips the lookup for them).
 */
export function postWebhook(
  url: string,
  body: string,
  options: { headers: Record<string, string>; allowPrivate: boolean; timeoutMs: number },
): Promise<{ status: number }> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host) && isPrivateAddress(host) && !options.allowPrivate) return Promise.reject(new BlockedTargetError(host));
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), "user-agent": "FirmaViva-Callback/1", ...options.headers },
        lookup: guardedLookup(options.allowPrivate),
        signal: AbortSignal.timeout(options.timeoutMs),
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0 }));
        response.on("error", reject);
      },
    );
    request.on("error", (error) => reject(error.name === "AbortError" ? new Error(`sin respuesta en ${options.timeoutMs / 1000} s`) : error));
    request.end(body);
  });
}
