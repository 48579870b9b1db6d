import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../fixtures/start-test-server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { MAX_UPLOAD_MB: "2" } });
});
afterAll(async () => {
  await server?.stop();
});

/** A body sent chunked (no Content-Length), `megabytes` long, produced as it is read. */
function chunkedBody(megabytes: number, prefix = "", suffix = ""): ReadableStream<Uint8Array> {
  let sent = 0;
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(prefix));
    },
    pull(controller) {
      if (sent >= megabytes * 1024 * 1024) {
        controller.enqueue(new TextEncoder().encode(suffix));
        controller.close();
        return;
      }
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

const post = (pathname: string, body: BodyInit, headers: Record<string, string>) =>
  fetch(server.baseUrl + pathname, { method: "POST", body, headers, duplex: "half" } as RequestInit);

describe("body limits before reading", () => {
  it("a declared 64 MB JSON body to the public login gets 413 at once", async () => {
    const response = await post("/api/auth/login", "x", { "content-type": "application/json", "content-length": String(64 * 1024 * 1024) }).catch((error: Error) => error);
    // the server may answer before the client finishes sending; either way nothing is read whole
    if (response instanceof Response) expect(response.status).toBe(413);
  });

  it.each([
    ["stamp token (JSON)", "/api/auth/token", "application/json"],
    ["process login (JSON)", "/api/auth/login", "application/json"],
    ["v3 token (JSON)", "/api/v3/auth/token", "application/json"],
  ])("%s: a 3 MB body sent chunked is cut off with 413", async (_name, pathname, type) => {
    const response = await post(pathname, chunkedBody(3, '{"email":"'), { "content-type": type });
    expect(response.status).toBe(413);
  });

  it("a multipart upload sent chunked past the aggregate cap is cut off with 413, in the stamp-API shape", async () => {
    const boundary = "----fvlimit";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
    const response = await post("/api/verify", chunkedBody(40, head, `\r\n--${boundary}--\r\n`), { "content-type": `multipart/form-data; boundary=${boundary}` });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ success: false });
  });
});

describe("control characters", () => {
  it.each([
    ["/api/auth/login", { email: "admin@demo.local\u0000", password: "x" }, "email"],
    ["/api/auth/token", { email: "a@b.c", password: "abc\u0000def" }, "password"],
  ])("%s: a NUL gets 400 naming the field, never a 500", async (pathname, body, field) => {
    const response = await post(pathname, JSON.stringify(body), { "content-type": "application/json" });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text + (response.headers.get("x-error-detail") ?? "")).toContain(field);
    expect(server.output()).not.toMatch(/invalid byte sequence|\\0/);
  });
});

describe("connection reuse after a 413", () => {
  it("the next request on a kept-alive connection works (Node's fetch reuses connections)", async () => {
    const big = new Uint8Array(3 * 1024 * 1024);
    const form = new FormData();
    form.append("file", new Blob([big], { type: "application/pdf" }), "big.pdf");
    const refused = await fetch(`${server.baseUrl}/api/verify`, { method: "POST", body: form });
    expect(refused.status).toBe(413);
    expect(refused.headers.get("connection")).toBe("close");
    await refused.arrayBuffer();
    for (let i = 0; i < 3; i++) expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
  });
});
