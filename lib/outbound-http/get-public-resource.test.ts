import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPublicResource } from "./get-public-resource";
import { BlockedTargetError } from "./post-webhook";

describe("getPublicResource (revocation data from addresses certificates name)", () => {
  let server: http.Server;
  let base = "";
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/slow") return; // never answers
      if (req.url === "/big") return void res.writeHead(200).end(Buffer.alloc(4096, 1)); // no declared length: capped while reading
      if (req.url === "/moved") return void res.writeHead(302, { location: "/crl" }).end();
      res.writeHead(200, { "content-type": "application/pkix-crl" }).end(Buffer.from([0x30, 0x03, 0x02, 0x01, 0x01]));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const allowed = { allowPrivate: true, timeoutMs: 5000, maxBytes: 1024 };
  it("refuses loopback and private targets unless the organization allows them, like callbacks", async () => {
    await expect(getPublicResource(`${base}/crl`, { ...allowed, allowPrivate: false })).rejects.toBeInstanceOf(BlockedTargetError);
    await expect(getPublicResource(`${base.replace("127.0.0.1", "localhost")}/crl`, { ...allowed, allowPrivate: false })).rejects.toBeInstanceOf(BlockedTargetError);
    expect(Array.from(await getPublicResource(`${base}/crl`, allowed))).toEqual([0x30, 0x03, 0x02, 0x01, 0x01]);
  });

  it.each([
    ["a body over the size cap", "/big", /larger than 1024 bytes/],
    ["a redirect (never followed)", "/moved", /HTTP 302/],
    ["no answer within the timeout", "/slow", /no answer within/],
    ["a scheme other than http(s)", "file:///etc/passwd", /unsupported scheme/],
  ])("fails on %s", async (_name, pathOrUrl, message) => {
    const url = pathOrUrl.startsWith("/") ? `${base}${pathOrUrl}` : pathOrUrl;
    await expect(getPublicResource(url, { ...allowed, timeoutMs: 500 })).rejects.toThrow(message);
  });
});
