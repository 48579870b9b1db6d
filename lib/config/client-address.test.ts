import { describe, expect, it } from "vitest";
import { PEER_ADDRESS_HEADER, clientAddress, parseTrustedProxies } from "./client-address";

const request = (peer: string | undefined, forwardedFor?: string) => {
  const headers = new Headers();
  if (peer !== undefined) headers.set(PEER_ADDRESS_HEADER, peer);
  if (forwardedFor !== undefined) headers.set("x-forwarded-for", forwardedFor);
  return { headers };
};

describe("clientAddress", () => {
  const proxies = parseTrustedProxies("10.0.0.0/8, 127.0.0.1 ::1");
  it.each([
    ["no proxy trusted: a client's own X-Forwarded-For is ignored", [], "203.0.113.5", "198.51.100.1", "203.0.113.5"],
    ["an untrusted peer's header is ignored", proxies, "203.0.113.5", "198.51.100.1", "203.0.113.5"],
    ["a trusted proxy: the entry it appended", proxies, "10.1.2.3", "198.51.100.1", "198.51.100.1"],
    ["two trusted hops, a forged entry left of the client", proxies, "127.0.0.1", "1.2.3.4, 198.51.100.1, 10.9.9.9", "198.51.100.1"],
    ["IPv4-mapped IPv6 peer", proxies, "::ffff:10.0.0.1", "198.51.100.7", "198.51.100.7"],
    ["text that is no address stops the walk at the last trusted hop", proxies, "10.0.0.1", "<script>alert(1)</script>", "10.0.0.1"],
    ["a hop written in a lax form is not believed", proxies, "10.0.0.1", "0x7f.1", "10.0.0.1"],
    ["every hop trusted: the leftmost", proxies, "127.0.0.1", "10.0.0.2, 10.0.0.3", "10.0.0.2"],
    ["IPv6 client, canonical form", proxies, "::1", "2001:DB8:0:0::1", "2001:db8::1"],
    // a proxy that writes the client's port: before, the walk stopped at the proxy and every client shared its address
    ["an IPv4 hop with its port", proxies, "10.0.0.1", "198.51.100.1:52314", "198.51.100.1"],
    ["an IPv6 hop in brackets with its port", proxies, "10.0.0.1", "[2001:db8::7]:443", "2001:db8::7"],
    ["an IPv6 hop in brackets without a port", proxies, "10.0.0.1", "[2001:db8::8]", "2001:db8::8"],
    ["a trusted hop with its port, then the client", proxies, "127.0.0.1", "198.51.100.9:1, 10.0.0.4:8080", "198.51.100.9"],
    ["a port out of form is not an address", proxies, "10.0.0.1", "198.51.100.1:abc", "10.0.0.1"],
  ] as const)("%s", (_name, trusted, peer, forwarded, expected) => {
    expect(clientAddress(request(peer, forwarded), trusted)).toBe(expected);
  });

  it("answers only valid addresses (the evidence prints it as IP), in canonical form", () => {
    expect(clientAddress(request("2001:0db8::0001"), [])).toBe("2001:db8::1");
    expect(clientAddress(request("a".repeat(64)), [])).toBe("unknown");
  });

  it("without the peer header (never served through our server) the address is unknown, whatever is forwarded", () => {
    expect(clientAddress(request(undefined, "198.51.100.1"), proxies)).toBe("unknown");
    expect(clientAddress(request("not-an-ip", "198.51.100.1"), proxies)).toBe("unknown");
  });
});

describe("parseTrustedProxies", () => {
  it("reads CIDR ranges and single addresses separated by commas or spaces", () => {
    expect(parseTrustedProxies("10.0.0.0/8,  192.168.1.1\n fd00::/8").map(([address, bits]) => `${address.toString()}/${bits}`)).toEqual(["10.0.0.0/8", "192.168.1.1/32", "fd00::/8"]);
    expect(parseTrustedProxies("")).toEqual([]);
    expect(parseTrustedProxies(undefined)).toEqual([]);
  });
  it.each(["10.0.0.0/33", "10.0.0/8", "example.com", "::1/129", "10.0.0.0/8/1", "10.0.0.0/x"])("refuses %s, naming it", (entry) => {
    expect(() => parseTrustedProxies(`127.0.0.1, ${entry}`)).toThrow(entry);
  });
});
