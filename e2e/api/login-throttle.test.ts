import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, ORG_DOMAIN, startTestServer, type TestServer } from "../fixtures/start-test-server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const post = (pathname: string, body: unknown, address: string) =>
  fetch(server.baseUrl + pathname, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": address }, body: JSON.stringify(body) });

describe("login throttling (per account and per address, shared through the database)", () => {
  it("stamp token: 5 wrong passwords are checked, then 429 with Retry-After, even for the right password; after the wait the right password works", async () => {
    const address = "203.0.113.10";
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await post("/api/auth/token", { email: ADMIN_EMAIL, password: `wrong-${i}` }, address)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const blocked = await post("/api/auth/token", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, address);
    expect(blocked.status).toBe(429);
    const wait = Number(blocked.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect((await blocked.json()).message).toMatch(/Demasiados intentos/);
    // wait for the block to end (a condition, with a generous limit), then the right password works
    const deadline = Date.now() + 60_000;
    let answer = blocked;
    while (answer.status === 429 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      answer = await post("/api/auth/token", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, address);
    }
    expect(answer.status).toBe(200);
    // a success starts the count again
    expect((await post("/api/auth/token", { email: ADMIN_EMAIL, password: "wrong-again" }, address)).status).toBe(401);
  }, 90_000);

  it("process login: a burst of 30 wrong secrets in parallel evaluates at most the free five", async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => post("/api/auth/login", { username: ORG_DOMAIN, clientname: ADMIN_EMAIL, password: `nope-${i}` }, `198.51.100.${i}`).then((r) => r.status)),
    );
    expect(answers.filter((status) => status === 404).length).toBeLessThanOrEqual(5);
    expect(answers.filter((status) => status === 429).length).toBeGreaterThanOrEqual(25);
  });

  it("one address spraying many accounts is slowed down too", async () => {
    const address = "192.0.2.77";
    const answers: number[] = [];
    for (let i = 0; i < 35; i++) answers.push((await post("/api/v3/auth/token", { email: `nobody-${i}@example.test`, password: "x" }, address)).status);
    expect(answers.slice(0, 29).every((status) => status === 401)).toBe(true);
    expect(answers.at(-1)).toBe(429);
  });
});
