import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlockedTargetError, isPrivateAddress, postWebhook } from "./post-webhook";

describe("isPrivateAddress", () => {
  const cases: [string, boolean][] = [
    ["127.0.0.1", true], ["10.1.2.3", true], ["172.20.0.1", true], ["192.168.1.1", true], ["169.254.169.254", true],
    ["::1", true], ["fe80::1", true], ["fd00::1", true], ["::ffff:127.0.0.1", true], ["0.0.0.0", true],
    ["8.8.8.8", false], ["2001:4860:4860::8888", false], ["::ffff:8.8.8.8", false],
    // IPv6 forms that embed an IPv4 address, and the old site-local range (issue 26)
    ["::ffff:7f00:1", true], ["::7f00:1", true], ["::127.0.0.1", true], ["::8.8.8.8", true],
    ["::ffff:0:7f00:1", true], ["::ffff:0:808:808", true], ["2002:7f00:1::1", true], ["2002:808:808::1", true],
    ["64:ff9b::7f00:1", true], ["64:ff9b:1::a00:1", true], ["64:ff9b:1:ffff::1", true], ["fec0::1", true], ["feff::1", true],
    ["not-an-address", true],
  ];
  for (const [address, expected] of cases) it(`${address} → ${expected}`, () => expect(isPrivateAddress(address)).toBe(expected));
});

describe("postWebhook", () => {
  let server: http.Server;
  let port = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/slow") return; // never answers
      res.writeHead(req.url === "/fail" ? 500 : 204).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("refuses loopback targets unless allowed", async () => {
    await expect(postWebhook(`http://127.0.0.1:${port}/`, "{}", { headers: {}, allowPrivate: false, timeoutMs: 2000 })).rejects.toBeInstanceOf(BlockedTargetError);
    await expect(postWebhook(`http://localhost:${port}/`, "{}", { headers: {}, allowPrivate: false, timeoutMs: 2000 })).rejects.toBeInstanceOf(BlockedTargetError);
    expect(await postWebhook(`http://localhost:${port}/`, "{}", { headers: {}, allowPrivate: true, timeoutMs: 2000 })).toEqual({ status: 204 });
  });

  it("reports the status and times out", async () => {
    expect(await postWebhook(`http://127.0.0.1:${port}/fail`, "{}", { headers: {}, allowPrivate: true, timeoutMs: 2000 })).toEqual({ status: 500 });
    await expect(postWebhook(`http://127.0.0.1:${port}/slow`, "{}", { headers: {}, allowPrivate: true, timeoutMs: 300 })).rejects.toThrow(/sin respuesta/);
  });
});
