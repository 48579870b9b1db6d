import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3Server } from "../fixtures/s3-server";
import { startTestServer, type TestServer } from "../fixtures/start-test-server";
import { waitFor } from "../fixtures/process-api-client";

// Issue 37: the anonymous /api/health/ready made an S3 GET (and queued pool pings) on every call.
// The server's blob store is a local S3 server behind a proxy that counts the readiness probe's reads.
let s3: Awaited<ReturnType<typeof startS3Server>>;
let proxy: http.Server;
let server: TestServer;
let probes = 0;

beforeAll(async () => {
  s3 = await startS3Server();
  const upstream = new URL(s3.env.S3_ENDPOINT);
  proxy = http.createServer((request, response) => {
    if (request.method === "GET" && request.url?.includes("health/readiness-probe")) probes++;
    const forwarded = http.request({ host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  server = await startTestServer({ env: { ...s3.env, S3_ENDPOINT: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` } });
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => proxy?.close(resolve));
  await s3?.stop();
});

const ready = async () => {
  const response = await fetch(`${server.baseUrl}/api/health/ready`);
  return { status: response.status, body: (await response.json()) as { status: string; checks: Record<string, string> } };
};

describe("/api/health/ready answers from one shared check per 2 s", () => {
  it("40 parallel calls make at most one S3 read and get one answer", async () => {
    const before = probes;
    const answers = await Promise.all(Array.from({ length: 40 }, ready));
    // before issue 37: 40 reads
    expect(probes - before).toBeLessThanOrEqual(1);
    // one shared check (on a busy machine the first may still find a worker booting: 503 for all alike)
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect([200, 503]).toContain(answers[0].status);
    const ok = await waitFor(async () => {
      const answer = await ready();
      return answer.status === 200 && answer;
    }, 60_000);
    expect(ok.body).toMatchObject({ status: "ok", checks: { blobs: "ok", database: "ok" } });
  }, 90_000);

  it("calls in a row are answered from the cache until it ages, then one new check reads S3 again", async () => {
    // start right after a fresh check, so the cache's 2 s lie ahead
    const start = probes;
    await waitFor(async () => (await ready(), probes > start), 30_000);
    const fresh = probes;
    let answered = 0;
    await waitFor(async () => {
      expect((await ready()).status).toBe(200);
      answered++;
      return probes > fresh;
    }, 30_000);
    expect(probes).toBe(fresh + 1);
    // the calls between the two reads were served by the cache
    expect(answered).toBeGreaterThan(1);
  }, 90_000);
});
