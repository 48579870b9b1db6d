import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_API_SECRET } from "../fixtures/start-test-server";
import { SECRET, startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { login, processApi, signer, type ProcessApi } from "../fixtures/process-api-client";

let seeded: SeededServer;
let admin: ProcessApi;
let viewer: ProcessApi;
let other: ProcessApi;

beforeAll(async () => {
  seeded = await startSeededServer();
  const base = seeded.server.baseUrl;
  const { shared, perSigner } = seeded.orgs;
  admin = processApi(base, await login(base, shared.domain, shared.admin, ADMIN_API_SECRET));
  viewer = processApi(base, await login(base, shared.domain, shared.viewer!, SECRET));
  other = processApi(base, await login(base, perSigner.domain, perSigner.admin, SECRET));
});
afterAll(async () => {
  await seeded?.server.stop();
});

describe("labels", () => {
  it("creates case-sensitive labels idempotently and lists them by name, descending, in pages", async () => {
    const names = ["alpha", "Alpha", "beta", "Gamma", "delta", "épsilon", "zeta"];
    for (const name of [...names, "beta"]) {
      const response = await admin.saveLabel(name);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe("ok");
    }
    await other.saveLabel("only-in-other-org");
    const expected = [...names].sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? 1 : -1));
    const seen: string[] = [];
    const statuses: number[] = [];
    let cursor: unknown;
    do {
      const response = await admin.labels({ limit: "3", ...(cursor ? { last_item: JSON.stringify(cursor) } : {}) });
      statuses.push(response.status);
      const body = await response.json();
      seen.push(...body.labels.map((l: { label: string; usr_id: string }) => l.label));
      for (const l of body.labels) expect(l.usr_id).toBe(seeded.orgs.shared.admin);
      cursor = body.last_item;
      if (response.status === 206) expect(cursor).toEqual({ label: expect.any(String), usr_id: seeded.orgs.shared.admin });
      else expect(body).not.toHaveProperty("last_item");
    } while (cursor);
    expect(statuses).toEqual([206, 206, 200]);
    expect(seen).toEqual(expected);
  });

  it("labels at process creation must exist; the viewer can read but not write", async () => {
    await admin.saveLabel("Contratos");
    expect((await admin.create({ signers: [signer()], labels: ["Contratos"] })).status).toBe(201);
    const wrongCase = await admin.create({ signers: [signer()], labels: ["contratos"] });
    expect(wrongCase.status).toBe(400);
    expect(wrongCase.headers.get("x-error-detail")).toContain("labels");
    expect((await viewer.labels()).status).toBe(200);
    expect((await viewer.saveLabel("x")).status).toBe(403);
    expect((await viewer.deleteLabel("Contratos")).status).toBe(403);
  });

  it("deletes a label; deleting an unknown one is 400", async () => {
    await admin.saveLabel("temporal");
    const deleted = await admin.deleteLabel("temporal");
    expect(deleted.status).toBe(200);
    expect(await deleted.text()).toBe("ok");
    const again = await admin.deleteLabel("temporal");
    expect(again.status).toBe(400);
    expect(again.headers.get("x-error-detail")).toContain("label");
  });

  it("caps a limit above 100 at 100 instead of refusing it", async () => {
    const response = await admin.labels({ limit: "101" });
    expect([200, 206]).toContain(response.status);
    expect((await response.json()).labels.length).toBeLessThanOrEqual(100);
  });

  const bad: [string, () => Promise<Response>, string][] = [
    ["limit 0", () => admin.labels({ limit: "0" }), "limit"],
    ["last_item not JSON", () => admin.labels({ last_item: "{" }), "last_item"],
    ["last_item without usr_id", () => admin.labels({ last_item: JSON.stringify({ label: "a" }) }), "last_item"],
    ["empty label", () => admin.saveLabel(""), "label"],
    ["label with surrounding spaces", () => admin.saveLabel(" x "), "label"],
    ["delete without label", () => admin.deleteLabel(undefined as unknown as string), "label"],
  ];
  for (const [name, call, field] of bad) {
    it(`400 bad request: ${name}`, async () => {
      const response = await call();
      expect(response.status).toBe(400);
      expect(await response.text()).toBe("bad request");
      expect(response.headers.get("x-error-detail")).toContain(field);
    });
  }
});
