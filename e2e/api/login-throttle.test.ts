import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_API_SECRET, ADMIN_EMAIL, ADMIN_PASSWORD, ORG_DOMAIN, startTestServer, type TestServer } from "../fixtures/start-test-server";

// `direct`: clients reach the server themselves (no TRUSTED_PROXIES). `proxied`: the test plays a
// reverse proxy on 127.0.0.1, trusted, whose X-Forwarded-For names each real client.
let direct: TestServer;
let proxied: TestServer;
beforeAll(async () => {
  [direct, proxied] = await Promise.all([startTestServer(), startTestServer({ env: { TRUSTED_PROXIES: "127.0.0.1/32, ::1" } })]);
}, 180_000);
afterAll(async () => {
  await Promise.all([direct?.stop(), proxied?.stop()]);
});

const post = (server: TestServer, pathname: string, body: unknown, forwardedFor: string) =>
  fetch(server.baseUrl + pathname, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor }, body: JSON.stringify(body) });

/** Polls (a condition, generous limit) until the answer is no longer 429. */
async function untilNotLimited(send: () => Promise<Response>): Promise<Response> {
  const deadline = Date.now() + 60_000;
  let answer = await send();
  while (answer.status === 429 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    answer = await send();
  }
  return answer;
}

type Answer = { status: number; at: number };

/** Sends `count` requests one after another, noting when each was answered. */
async function inTurn(count: number, send: (i: number) => Promise<Response>): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < count; i++) answers.push({ status: (await send(i)).status, at: Date.now() });
  return answers;
}

/**
 * The client met 429, and stayed blocked from then on: a wrong login is evaluated again (401) only
 * when a block ran out (blocks last 1, 2, 4… s), so on a busy machine the last of a series may fall
 * just after one. Such 401s are counted against the time the series took, never more.
 */
function expectBlockedOnceRefused(answers: Answer[]): void {
  const firstRefusal = answers.findIndex(({ status }) => status === 429);
  expect(firstRefusal, "no 429 in the series").toBeGreaterThanOrEqual(0);
  const afterBlock = answers.slice(firstRefusal);
  const blocksRunOut = Math.ceil(Math.log2((afterBlock.at(-1)!.at - afterBlock[0].at) / 1000 + 1));
  expect(afterBlock.filter(({ status }) => status === 401).length).toBeLessThanOrEqual(blocksRunOut);
  expect(afterBlock.every(({ status }) => status === 401 || status === 429)).toBe(true);
}

describe("login throttling without a trusted proxy: X-Forwarded-For buys nothing", () => {
  it("process login: a burst of 30 wrong secrets in parallel, each claiming its own address, evaluates the free five (and one more per block that ran out meanwhile)", async () => {
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => post(direct, "/api/auth/login", { username: ORG_DOMAIN, clientname: ADMIN_EMAIL, password: `nope-${i}` }, `198.51.100.${i}`).then((r) => r.status)),
    );
    // blocks last 1, 2, 4… s: on a slow machine a burst may outlast the first ones, never more
    const blocksRunOut = Math.ceil(Math.log2((Date.now() - started) / 1000 + 1));
    expect(answers.filter((status) => status === 404).length).toBeLessThanOrEqual(5 + blocksRunOut);
    expect(answers.filter((status) => status !== 404).every((status) => status === 429)).toBe(true);
  });

  it("40 wrong logins on 40 accounts with 40 forged X-Forwarded-For values meet 429 (one real client, one budget)", async () => {
    const answers = await inTurn(40, (i) => post(direct, "/api/v3/auth/token", { email: `sprayed-${i}@example.test`, password: "x" }, `203.0.113.${i + 1}`));
    // the burst above already spent some of this one client's failures
    expect(answers.filter(({ status }) => status === 401).length).toBeLessThanOrEqual(30);
    expectBlockedOnceRefused(answers);
  });
});

describe("login throttling behind a trusted proxy: counted per real client", () => {
  it("stamp token: 5 wrong passwords from one client are checked, then 429 with Retry-After even for the right password from that client; after the wait it works", async () => {
    const client = "203.0.113.10";
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await post(proxied, "/api/auth/token", { email: ADMIN_EMAIL, password: `wrong-${i}` }, client)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const blocked = await post(proxied, "/api/auth/token", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, client);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await blocked.json()).message).toMatch(/Demasiados intentos/);
    expect((await untilNotLimited(() => post(proxied, "/api/auth/token", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, client))).status).toBe(200);
    // a success starts the count again
    expect((await post(proxied, "/api/auth/token", { email: ADMIN_EMAIL, password: "wrong-again" }, client)).status).toBe(401);
  }, 90_000);

  it("the right password from a client that has not been failing gets in while an attacker keeps the account failing (staff and machine credential)", async () => {
    const attacker = "192.0.2.66";
    for (let i = 0; i < 8; i++) await post(proxied, "/api/v3/auth/token", { email: ADMIN_EMAIL, password: `guess-${i}` }, attacker);
    expect((await post(proxied, "/api/v3/auth/token", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, attacker)).status).toBe(429);
    expect((await post(proxied, "/api/v3/auth/token", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, "198.51.100.200")).status).toBe(200);
    for (let i = 0; i < 8; i++) await post(proxied, "/api/auth/login", { username: ORG_DOMAIN, clientname: ADMIN_EMAIL, password: `guess-${i}` }, attacker);
    expect((await post(proxied, "/api/auth/login", { username: ORG_DOMAIN, clientname: ADMIN_EMAIL, password: ADMIN_API_SECRET }, attacker)).status).toBe(429);
    expect((await post(proxied, "/api/auth/login", { username: ORG_DOMAIN, clientname: ADMIN_EMAIL, password: ADMIN_API_SECRET }, "198.51.100.201")).status).toBe(200);
  });

  it("40 wrong logins from 40 real clients are each their own; one client spraying 40 accounts meets 429", async () => {
    const spread: number[] = [];
    for (let i = 0; i < 40; i++) spread.push((await post(proxied, "/api/v3/auth/token", { email: `spread-${i}@example.test`, password: "x" }, `203.0.113.${100 + i}`)).status);
    expect(spread.every((status) => status === 401)).toBe(true);
    const one = await inTurn(35, (i) => post(proxied, "/api/v3/auth/token", { email: `nobody-${i}@example.test`, password: "x" }, "192.0.2.77"));
    expect(one.slice(0, 30).every(({ status }) => status === 401)).toBe(true);
    expectBlockedOnceRefused(one);
  });

  it("a forged entry left of the proxy's own is not believed: the client the proxy saw is counted", async () => {
    const answers = await inTurn(35, (i) => post(proxied, "/api/v3/auth/token", { email: `forger-${i}@example.test`, password: "x" }, `10.${i}.0.1, 192.0.2.88`));
    expectBlockedOnceRefused(answers);
  });
});
