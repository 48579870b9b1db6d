import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_API_SECRET, ADMIN_EMAIL, ADMIN_PASSWORD, ORG_DOMAIN, startTestServer, type TestServer } from "../fixtures/start-test-server";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const post = (path: string, body: unknown) =>
  fetch(`${server.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe("health", () => {
  it("answers ok after checking the database", async () => {
    const response = await fetch(`${server.baseUrl}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ok" });
  });
});

describe("bootstrap triple", () => {
  it("issues a v2 stamp token for the bootstrap admin", async () => {
    const response = await post("/api/auth/token", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.status).toBe(200);
    expect(typeof body.data.token).toBe("string");
    expect(body.data.token.length).toBeGreaterThan(20);
  });

  it("issues a v3 JWT for the bootstrap admin", async () => {
    const response = await post("/api/v3/auth/token", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(response.status).toBe(200);
    const { token } = await response.json();
    expect(token.split(".")).toHaveLength(3);
  });

  it("logs in to the process API with domain + clientname + secret", async () => {
    const response = await post("/api/auth/login", { username: ORG_DOMAIN, clientname: ADMIN_EMAIL, password: ADMIN_API_SECRET });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(Object.keys(body)).toEqual(["access_token"]);
  });
});

describe("refusals", () => {
  const cases: { name: string; path: string; body: unknown; status: number; check: (text: string) => void }[] = [
    {
      name: "v2 token, wrong password",
      path: "/api/auth/token",
      body: { email: ADMIN_EMAIL, password: "wrong-password" },
      status: 401,
      check: (text) => expect(JSON.parse(text)).toMatchObject({ success: false }),
    },
    {
      name: "v2 token, missing password",
      path: "/api/auth/token",
      body: { email: ADMIN_EMAIL },
      status: 400,
      check: (text) => expect(JSON.parse(text).message).toContain("password"),
    },
    {
      name: "v3 token, wrong password",
      path: "/api/v3/auth/token",
      body: { email: ADMIN_EMAIL, password: "wrong-password" },
      status: 401,
      check: (text) => expect(JSON.parse(text)).toEqual({ error: "invalid_credentials" }),
    },
    {
      name: "v3 token, unknown user",
      path: "/api/v3/auth/token",
      body: { email: "nobody@demo.local", password: "whatever-123" },
      status: 401,
      check: (text) => expect(JSON.parse(text)).toEqual({ error: "invalid_credentials" }),
    },
    {
      name: "v3 token, missing password: the v3 {error} form, naming the field",
      path: "/api/v3/auth/token",
      body: { email: ADMIN_EMAIL },
      status: 400,
      check: (text) => {
        const body = JSON.parse(text);
        expect(Object.keys(body)).toEqual(["error"]);
        expect(body.error).toContain("password");
      },
    },
    {
      name: "v3 token, body is not JSON",
      path: "/api/v3/auth/token",
      body: "{not json",
      status: 400,
      check: (text) => expect(Object.keys(JSON.parse(text))).toEqual(["error"]),
    },
    {
      name: "process login, missing password: 404 as the spec documents for login",
      path: "/api/auth/login",
      body: { username: ORG_DOMAIN, clientname: ADMIN_EMAIL },
      status: 404,
      check: (text) => expect(text).toBe("not found"),
    },
    {
      name: "process login, wrong secret",
      path: "/api/auth/login",
      body: { username: ORG_DOMAIN, clientname: ADMIN_EMAIL, password: "nope-nope" },
      status: 404,
      check: (text) => expect(text).toBe("not found"),
    },
    {
      name: "process login, unknown organization",
      path: "/api/auth/login",
      body: { username: "other.example", clientname: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      status: 404,
      check: (text) => expect(text).toBe("not found"),
    },
    {
      name: "process login, body is not JSON",
      path: "/api/auth/login",
      body: "{not json",
      status: 404,
      check: (text) => expect(text).toBe("not found"),
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const response = await post(c.path, c.body);
      expect(response.status).toBe(c.status);
      c.check(await response.text());
    });
  }

  it("names the missing field of a refused login in X-Error-Detail, the body staying `not found`", async () => {
    const response = await post("/api/auth/login", { username: ORG_DOMAIN, password: "x" });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("not found");
    expect(response.headers.get("x-error-detail")).toContain("clientname");
  });
});
