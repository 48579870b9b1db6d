import ipaddr from "ipaddr.js";

/**
 * The TCP peer of a request, written by lib/runtime/record-peer-address.ts from the socket itself
 * (over any value a client sent), since Next does not hand the socket to route handlers.
 */
export const PEER_ADDRESS_HEADER = "x-firmaviva-peer-address";

type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type TrustedProxies = ReadonlyArray<readonly [Address, number]>;

/** A strictly written IPv4 (four decimal parts) or IPv6 address, IPv4-mapped IPv6 unwrapped. */
function parseAddress(text: string): Address | undefined {
  const trimmed = text.trim();
  if (ipaddr.IPv4.isValidFourPartDecimal(trimmed)) return ipaddr.IPv4.parse(trimmed);
  if (!ipaddr.IPv6.isValid(trimmed) || trimmed.includes("%")) return undefined;
  const v6 = ipaddr.IPv6.parse(trimmed);
  return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
}

/** An X-Forwarded-For hop: an address, or one written with its port (`1.2.3.4:5678`, `[2001:db8::1]:443`, `[::1]`). */
function parseHop(text: string): Address | undefined {
  const trimmed = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(trimmed);
  if (bracketed) return parseAddress(bracketed[1]);
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(trimmed);
  return parseAddress(v4WithPort ? v4WithPort[1] : trimmed);
}

/**
 * TRUSTED_PROXIES: CIDR ranges (or single addresses) separated by commas or spaces. Throws a
 * message naming the first bad entry.
 */
export function parseTrustedProxies(text: string | undefined): TrustedProxies {
  const entries = (text ?? "").split(/[\s,]+/).filter(Boolean);
  return entries.map((entry) => {
    const [addressText, bitsText, ...rest] = entry.split("/");
    const address = parseAddress(addressText);
    const max = address?.kind() === "ipv4" ? 32 : 128;
    const bits = bitsText === undefined ? max : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
    if (!address || rest.length > 0 || !(bits >= 0 && bits <= max)) throw new Error(`"${entry}" is not an IP address or CIDR range such as 10.0.0.0/8`);
    return [address, bits] as const;
  });
}

function isTrusted(address: Address, trusted: TrustedProxies): boolean {
  return trusted.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

/** Whether an address (as text) is loopback or inside one of the ranges; unreadable text never is. */
export function isLoopbackOrIn(text: string, ranges: TrustedProxies): boolean {
  const address = parseAddress(text);
  if (!address) return false;
  return address.range() === "loopback" || isTrusted(address, ranges);
}

/**
 * The client's address: the socket peer, unless that peer is a trusted proxy, in which case
 * X-Forwarded-For is walked from the right past every trusted hop; the first untrusted (or the
 * last readable) hop is the client. A client's own X-Forwarded-For is thereby never believed.
 */
export function clientAddress(request: Request | { headers: Headers }, trusted: TrustedProxies): string {
  let client = parseAddress(request.headers.get(PEER_ADDRESS_HEADER) ?? "");
  if (!client) return "unknown";
  const hops = (request.headers.get("x-forwarded-for") ?? "").split(",").reverse();
  for (const hop of hops) {
    if (!isTrusted(client, trusted)) break;
    const previous = parseHop(hop);
    if (!previous) break;
    client = previous;
  }
  return client.toString();
}
