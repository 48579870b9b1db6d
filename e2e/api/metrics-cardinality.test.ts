import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../fixtures/start-test-server";

// Before: any path segment of up to 32 letters became a route label, and next-auth's catch-all
// (/api/session/[...nextauth]) is measured, so each anonymous request to a made-up path added a
// histogram series that was never removed.
const METRICS_TOKEN = "metrics-cardinality-token-0123456789";
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { METRICS_TOKEN } });
}, 120_000);
afterAll(async () => server?.stop());

async function series(): Promise<string[]> {
  const text = await (await fetch(`${server.baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  return text.split("\n").filter((line) => line.startsWith("firmaviva_http_request_duration_seconds_count{"));
}

const word = () => Array.from(crypto.randomBytes(12), (b) => String.fromCharCode(97 + (b % 26))).join("");

describe("metrics anyone can inflate", () => {
  it("1,000 requests to random paths add no series", async () => {
    const paths = () => [`/api/session/${word()}`, `/api/session/${word()}/${word()}`, `/api/signer/${word()}/${word()}`, `/api/${word()}`];
    // next-auth's catch-all measures its POSTs; one of each shape first, and one scrape (the scrape is
    // measured too): the fixed labels they fall under exist from here on
    const send = (path: string) => fetch(server.baseUrl + path, { method: "POST", body: "" }).then((r) => r.arrayBuffer());
    for (const path of paths()) await send(path);
    await series();
    const before = await series();
    for (let sent = 0; sent < 1000; sent += 20) {
      await Promise.all(Array.from({ length: 20 }, (_, i) => send(paths()[i % 4])));
    }
    const after = await series();
    expect(after.map((line) => line.replace(/\} \d+$/, "}"))).toEqual(before.map((line) => line.replace(/\} \d+$/, "}")));
    expect(after.join("\n")).not.toMatch(/route="\/api\/session\/[a-z]{12}/);
    // the requests were measured, under the fixed label
    const count = (lines: string[]) => lines.filter((l) => l.includes('route="/api/session/:id"')).reduce((sum, l) => sum + Number(l.split(" ").pop()), 0);
    expect(count(after) - count(before)).toBeGreaterThanOrEqual(500);
  }, 300_000);
});
