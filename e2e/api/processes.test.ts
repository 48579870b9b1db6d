import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_API_SECRET } from "../fixtures/start-test-server";
import { SECRET, startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { TINY_PDF, login, pdf, processApi, signer, type ProcessApi } from "../fixtures/process-api-client";

let seeded: SeededServer;
let base: string;
let admin: ProcessApi; // demo.local, shared links
let viewer: ProcessApi;
let perSigner: ProcessApi; // per-signer.test
let approval: ProcessApi; // approval.test

const ID = /^[0-9a-f]{32}:[0-9a-f]{16}$/;
const LINK = () => new RegExp(`^${base.replace(/[.:/]/g, "\\$&")}/ui/signature_processes/[A-Za-z0-9_-]{43}$`);

beforeAll(async () => {
  seeded = await startSeededServer();
  base = seeded.server.baseUrl;
  const { shared, perSigner: p, approval: a } = seeded.orgs;
  admin = processApi(base, await login(base, shared.domain, shared.admin, ADMIN_API_SECRET));
  viewer = processApi(base, await login(base, shared.domain, shared.viewer!, SECRET));
  perSigner = processApi(base, await login(base, p.domain, p.admin, SECRET));
  approval = processApi(base, await login(base, a.domain, a.admin, SECRET));
});
afterAll(async () => {
  await seeded?.server.stop();
});

async function created(api: ProcessApi, fields: Record<string, unknown>) {
  const response = await api.create(fields);
  expect(response.status, response.headers.get("x-error-detail") ?? "").toBe(201);
  return (await response.json()) as { id: string; msg: unknown };
}

async function listOne(api: ProcessApi, id: string) {
  const response = await api.list({ process_id: id });
  expect(response.status).toBe(200);
  return (await response.json()).signatureProcesses[0];
}

describe("authentication and permissions", () => {
  const routes: [string, string][] = [
    ["PUT", "/api/signature_processes"],
    ["POST", "/api/signature_processes"],
    ["GET", "/api/signature_processes"],
    ["DELETE", "/api/signature_processes"],
    ["POST", "/api/notify"],
    ["GET", "/api/labels"],
    ["POST", "/api/labels"],
  ];
  for (const [method, route] of routes) {
    for (const [what, header] of [["no token", undefined], ["a bad token", "jwt-bearer not.a.token"]] as const) {
      it(`${method} ${route} with ${what} → 401 unauthorized`, async () => {
        const response = await fetch(`${base}${route}`, { method, headers: header ? { authorization: header } : {} });
        expect(response.status).toBe(401);
        expect(await response.text()).toBe("unauthorized");
      });
    }
  }

  it("a viewer may list but not create, modify, reject, notify or write labels (403 forbidden)", async () => {
    const { id } = await created(admin, { signers: [signer()] });
    expect((await viewer.list({ process_id: id })).status).toBe(200);
    const refusals = [
      await viewer.create({ signers: [signer()] }),
      await viewer.modify({ process_id: id, description: "x" }),
      await viewer.reject([id]),
      await viewer.notify({ process_id: id }),
      await viewer.saveLabel("x"),
    ];
    for (const response of refusals) {
      expect(response.status).toBe(403);
      expect(await response.text()).toBe("forbidden");
    }
  });
});

describe("create", () => {
  it("answers 201 {id, msg} with one shared link", async () => {
    const body = await created(admin, { signers: [signer(), signer()], description: "Contrato", signOrder: "true" });
    expect(body.id).toMatch(ID);
    expect(body.msg).toMatch(LINK());
  });

  it("accepts several pdfFiles and stamps each signer once per requested file", async () => {
    const files = [
      { name: "a.pdf", bytes: TINY_PDF() },
      { name: "b.pdf", bytes: pdf("valid/rotate90-all-pages.pdf") },
    ];
    const only1 = signer({ stampPositions: { "1": { "1": { x: 5, y: 5, size: 2, orientation: "horizontal" } } } });
    const response = await admin.create({ signers: [signer(), only1] }, files);
    expect(response.status).toBe(201);
    const record = await listOne(admin, (await response.json()).id);
    expect(record.documents.map((d: { name: string }) => d.name)).toEqual(["a.pdf", "b.pdf"]);
    const [first, second] = record.signers;
    expect(Object.keys(first.stampPositions)).toEqual(["0", "1"]);
    expect(Object.keys(second.stampPositions)).toEqual(["1"]);
    const pages1 = record.documents[1].pages;
    const slot = second.stampPositions["1"][String(pages1 + 1)];
    expect(slot).toMatchObject({ page: pages1 + 1, size: 2, orientation: "horizontal" });
    expect(slot.x).not.toBe(5); // page and x/y are overwritten by the service
  });

  it("per-signer organizations answer one {link, nat_dni} per signer with distinct links", async () => {
    const a = signer();
    const body = await created(perSigner, { signers: [a, { nat: "CHL", doc_id: "12345678-5" }] });
    const msg = body.msg as { link: string; nat_dni: string }[];
    expect(msg.map((m) => m.nat_dni)).toEqual([`PER:${a.doc_id}`, "CHL:12345678-5"]);
    for (const m of msg) expect(m.link).toMatch(LINK());
    expect(new Set(msg.map((m) => m.link)).size).toBe(2);
  });

  it("organizations that require approval answer approvalPending", async () => {
    const body = await created(approval, { signers: [signer()] });
    expect(body.msg).toBe("approvalPending");
    expect((await listOne(approval, body.id)).status).toBe("approval_pending");
  });

  const encrypted = pdf("encrypted/qpdf-aes256-user-password.pdf");
  const certified = pdf("signed-by-others/jsignpdf-docmdp1-certified.pdf");
  const garbage = new TextEncoder().encode("%PDF-1.7\nthis is not a pdf at all");
  const cases: { name: string; fields?: Record<string, unknown>; files?: { name: string; bytes: Uint8Array }[]; field: string; api?: () => ProcessApi }[] = [
    { name: "no pdfFiles", files: [], field: "pdfFiles" },
    { name: "signers missing", fields: { signers: undefined }, field: "signers" },
    { name: "signers not JSON", fields: { signers: "[{nat:" }, field: "signers" },
    { name: "no signers", fields: { signers: [] }, field: "signers" },
    { name: "DNI with 7 digits", fields: { signers: [signer({ doc_id: "1234567" })] }, field: "signers.0.doc_id" },
    { name: "nat not enabled for the organization", fields: { signers: [{ nat: "CHL", doc_id: "12345678-5" }] }, field: "signers.0.nat" },
    { name: "unknown nat", fields: { signers: [{ nat: "ARG", doc_id: "12345678" }] }, field: "signers.0.nat" },
    { name: "CHL check digit wrong", fields: { signers: [{ nat: "CHL", doc_id: "12345678-4" }] }, field: "signers.0.doc_id", api: () => perSigner },
    { name: "PERCE with 11 digits", fields: { signers: [{ nat: "PERCE", doc_id: "12345678901" }] }, field: "signers.0.doc_id", api: () => perSigner },
    { name: "signChallenge other than facial", fields: { signers: [signer({ signChallenges: ["sms"] })] }, field: "signers.0.signChallenges" },
    { name: "invalid e-mail", fields: { signers: [signer({ contactInfo: { type: "email", value: "nope" } })] }, field: "signers.0.contactInfo.value" },
    { name: "whatsapp with spaces", fields: { signers: [signer({ contactInfo: { type: "whatsapp", value: "+51 999 888 777" } })] }, field: "signers.0.contactInfo.value" },
    { name: "contact type sms", fields: { signers: [signer({ contactInfo: { type: "sms", value: "+51999888777" } })] }, field: "signers.0.contactInfo.type" },
    { name: "bad tz", fields: { signers: [signer({ contactInfo: { type: "email", value: "a@b.pe", tz: "5:00" } })] }, field: "signers.0.contactInfo.tz" },
    { name: "duplicate signer", fields: { signers: [signer({ doc_id: "44444444" }), signer({ doc_id: "44444444" })] }, field: "signers.1.doc_id" },
    { name: "stamp on a file that does not exist", fields: { signers: [signer({ stampPositions: { "3": { "1": {} } } })] }, field: "stampPositions.3" },
    { name: "unknown label", fields: { labels: ["no-such-label"] }, field: "labels" },
    { name: "expire not a number", fields: { expire: "abc" }, field: "expire" },
    { name: "expire negative", fields: { expire: "-5" }, field: "expire" },
    { name: "link_expire zero", fields: { link_expire: "0" }, field: "link_expire" },
    { name: "link_expire beyond expire", fields: { expire: "100", link_expire: "200" }, field: "link_expire" },
    { name: "urlCallback not http", fields: { urlCallback: "ftp://example.com/cb" }, field: "urlCallback" },
    { name: "readChallenges unknown", fields: { readChallenges: ["selfie"] }, field: "readChallenges" },
    { name: "damaged PDF", files: [{ name: "x.pdf", bytes: garbage }], field: "pdfFiles.0" },
    { name: "encrypted PDF", files: [{ name: "x.pdf", bytes: encrypted }], field: "pdfFiles.0" },
    { name: "certified PDF (DocMDP P=1)", files: [{ name: "x.pdf", bytes: certified }], field: "pdfFiles.0" },
  ];
  for (const c of cases) {
    it(`400 bad request: ${c.name}`, async () => {
      const api = c.api?.() ?? admin;
      const response = await api.create({ signers: [signer()], ...c.fields }, c.files);
      expect(response.status).toBe(400);
      expect(await response.text()).toBe("bad request");
      expect(response.headers.get("x-error-detail")).toContain(c.field);
    });
  }
});

describe("list", () => {
  it("returns every field of the resource with ISO dates and a working 120 s document link", async () => {
    const { id } = await created(admin, { signers: [signer()], description: "Lista", urlCallback: "https://example.com/cb", readChallenges: [] });
    const record = await listOne(admin, id);
    for (const key of ["id", "status", "date", "expire", "description", "sign_order", "documents", "signers", "signers_search", "labels", "readChallenges", "urlCallback", "nat", "per_id"]) {
      expect(record).toHaveProperty(key);
    }
    expect(record).toMatchObject({ id, status: "pending", description: "Lista", sign_order: false, readChallenges: [], urlCallback: "https://example.com/cb" });
    expect(record.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/);
    expect(Date.parse(record.expire) - Date.parse(record.date)).toBe(30 * 86400 * 1000);
    const s = record.signers[0];
    for (const key of ["nat", "doc_id", "signatureType", "signChallenges", "stampPositions", "contactInfo", "signerAlias", "sign_data", "pinfo"]) expect(s).toHaveProperty(key);
    expect(s.contactInfo).toMatchObject({ type: "email", tz: "-05:00" });
    expect(record.signers_search).toEqual([`PER:${s.doc_id}`]);
    const doc = record.documents[0];
    expect(doc).toMatchObject({ name: "contrato.pdf", pages: 1 });
    const url = new URL(doc.url);
    expect(Number(url.searchParams.get("expires")) - Date.now() / 1000).toBeLessThanOrEqual(121);
    const download = await fetch(doc.url);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(TINY_PDF());
    url.searchParams.set("signature", "A".repeat(43));
    expect((await fetch(url)).status).toBe(404);
    url.searchParams.set("expires", String(Math.floor(Date.now() / 1000) - 1));
    expect((await fetch(url)).status).toBe(404);
  });

  it("pages with a keyset cursor across 3 pages: 206, 206, 200, no duplicates, newest first", async () => {
    for (let i = 0; i < 5; i++) await created(perSigner, { signers: [signer()] });
    const all = (await (await perSigner.list({ limit: "100" })).json()).signatureProcesses.map((p: { id: string }) => p.id);
    expect(all.length).toBeGreaterThanOrEqual(5);
    const limit = String(Math.ceil(all.length / 3));
    const seen: string[] = [];
    const statuses: number[] = [];
    let cursor: unknown = undefined;
    do {
      const response = await perSigner.list({ limit, ...(cursor ? { last_item: JSON.stringify(cursor) } : {}) });
      statuses.push(response.status);
      const body = await response.json();
      seen.push(...body.signatureProcesses.map((p: { id: string }) => p.id));
      cursor = body.last_item;
      if (response.status === 206) expect(cursor).toMatchObject({ processId: expect.any(String), date: expect.any(String) });
    } while (cursor);
    expect(statuses).toEqual([206, 206, 200]);
    expect(seen).toEqual(all);
  });

  it("filters by status and creation window; process_id overrides the other filters", async () => {
    const { id } = await created(admin, { signers: [signer()] });
    expect((await admin.reject([id])).status).toBe(200);
    const rejected = await (await admin.list({ status: "rejected", limit: "100" })).json();
    expect(rejected.signatureProcesses.length).toBeGreaterThan(0);
    expect(rejected.signatureProcesses.every((p: { status: string }) => p.status === "rejected")).toBe(true);
    expect(rejected.signatureProcesses.map((p: { id: string }) => p.id)).toContain(id);
    expect((await admin.list({ creation_end: "20000101T00:00:00+00:00" })).status).toBe(404);
    const now = new Date();
    const stamp = (d: Date) => d.toISOString().replace(/[-]/g, "").replace(/\.\d{3}Z$/, "+00:00");
    const windowed = await admin.list({ creation_start: stamp(new Date(now.getTime() - 60_000)), creation_end: stamp(new Date(now.getTime() + 60_000)), limit: "100" });
    expect(windowed.status).toBe(200);
    expect((await windowed.json()).signatureProcesses.map((p: { id: string }) => p.id)).toContain(id);
    const overriding = await admin.list({ process_id: id, status: "signed", creation_end: "20000101T00:00:00+00:00" });
    expect(overriding.status).toBe(200);
    expect((await overriding.json()).signatureProcesses.map((p: { id: string }) => p.id)).toEqual([id]);
  });

  const bad: Record<string, string>[] = [
    { limit: "0" },
    { limit: "diez" },
    { creation_start: "2024-01-01" },
    { creation_start: "20241301T00:00:00+00:00" },
    { creation_end: "20240230T00:00:00+00:00" },
    { creation_end: "20240101T25:00:00+00:00" },
    { status: "done" },
    { last_item: "{not json" },
    { last_item: JSON.stringify({ processId: "x" }) },
  ];
  it("caps a limit above 100 at 100 instead of refusing it (the spec sets no bound)", async () => {
    await created(admin, { signers: [signer()] });
    const response = await admin.list({ limit: "101" });
    expect([200, 206]).toContain(response.status);
    const page = await response.json();
    expect(page.signatureProcesses.length).toBeLessThanOrEqual(100);
    expect(Object.keys(page).sort()).toEqual(["last_item", "signatureProcesses"]);
  });

  for (const params of bad) {
    it(`400 bad request for ${JSON.stringify(params)}`, async () => {
      const response = await admin.list(params);
      expect(response.status).toBe(400);
      expect(await response.text()).toBe("bad request");
      expect(response.headers.get("x-error-detail")).toContain(Object.keys(params)[0]);
    });
  }

  it("404 not found when nothing matches, and for another organization's process", async () => {
    const { id } = await created(perSigner, { signers: [signer()] });
    const response = await admin.list({ process_id: id });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("not found");
  });
});

describe("modify", () => {
  it("updates description, alias, contact and stamp style; removes a signer (JSON and multipart)", async () => {
    const [a, b] = [signer(), signer()];
    const { id } = await created(admin, { signers: [a, b] });
    const response = await admin.modify({
      process_id: id,
      description: "Nueva descripción",
      signers: [{ nat: "PER", doc_id: a.doc_id, action: "update", signerAlias: "Ana", contactInfo: { type: "whatsapp", value: "+51999888777" }, stampPositions: { "0": { "1": { size: 2, orientation: "vertical" } } } }],
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ok");
    const multipart = await admin.modifyMultipart({ process_id: id, signers: [{ doc_id: b.doc_id, action: "remove" }] });
    expect(multipart.status).toBe(200);
    const record = await listOne(admin, id);
    expect(record.description).toBe("Nueva descripción");
    expect(record.signers).toHaveLength(1);
    expect(record.signers[0]).toMatchObject({ doc_id: a.doc_id, signerAlias: "Ana", contactInfo: { type: "whatsapp", value: "+51999888777", tz: "-05:00" } });
    expect(Object.values(record.signers[0].stampPositions["0"])[0]).toMatchObject({ size: 2, orientation: "vertical", page: 2 });
  });

  it("refuses what the table says", async () => {
    const { id } = await created(admin, { signers: [signer()] });
    const other = await created(perSigner, { signers: [signer()] });
    const only = (await listOne(admin, id)).signers[0];
    const cases: [string, Record<string, unknown>, number, string][] = [
      ["unknown process", { process_id: "0".repeat(32) + ":" + "0".repeat(16) }, 404, "not found"],
      ["another organization's process", { process_id: other.id, description: "x" }, 404, "not found"],
      ["removing every signer", { process_id: id, signers: [{ doc_id: only.doc_id, action: "remove" }] }, 400, "bad request"],
      ["unknown signer", { process_id: id, signers: [{ doc_id: "99999999", action: "update", signerAlias: "x" }] }, 400, "bad request"],
      ["bad action", { process_id: id, signers: [{ doc_id: only.doc_id, action: "rename" }] }, 400, "bad request"],
      ["missing process_id", { description: "x" }, 400, "bad request"],
    ];
    for (const [name, body, status, text] of cases) {
      const response = await admin.modify(body);
      expect(response.status, name).toBe(status);
      expect(await response.text(), name).toBe(text);
    }
    await admin.reject([id]);
    const closed = await admin.modify({ process_id: id, description: "tarde" });
    expect(closed.status).toBe(403);
    expect(await closed.text()).toBe("forbidden");
  });
});

describe("reject", () => {
  it("rejects one process; a second time is 403, an unknown id 404", async () => {
    const { id } = await created(admin, { signers: [signer()] });
    const first = await admin.reject([id]);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ errors: [] });
    expect((await listOne(admin, id)).status).toBe("rejected");
    const again = await admin.reject([id]);
    expect(again.status).toBe(403);
    expect(await again.text()).toBe("forbidden");
    const unknown = await admin.reject(["f".repeat(32) + ":" + "f".repeat(16)]);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe("not found");
  });

  it("a list answers 200 with the ids that failed (decision 14), including another organization's", async () => {
    const open = await created(admin, { signers: [signer()] });
    const closed = await created(admin, { signers: [signer()] });
    const foreign = await created(perSigner, { signers: [signer()] });
    await admin.reject([closed.id]);
    const response = await admin.reject([open.id, closed.id, foreign.id, "nope"]);
    expect(response.status).toBe(200);
    expect((await response.json()).errors).toEqual([
      { process_id: closed.id, error: "forbidden" },
      { process_id: foreign.id, error: "not found" },
      { process_id: "nope", error: "not found" },
    ]);
    expect((await listOne(perSigner, foreign.id)).status).toBe("pending");
  });

  it("accepts a multipart body and approval-pending processes; refuses an empty list", async () => {
    const { id } = await created(approval, { signers: [signer()] });
    const form = new FormData();
    form.append("process_id_list", JSON.stringify([id]));
    const response = await fetch(`${base}/api/signature_processes`, { method: "DELETE", headers: { authorization: (await approvalAuth()) }, body: form });
    expect(response.status).toBe(200);
    expect((await listOne(approval, id)).status).toBe("rejected");
    const empty = await admin.reject([]);
    expect(empty.status).toBe(400);
    expect(empty.headers.get("x-error-detail")).toContain("process_id_list");
  });
});

async function approvalAuth() {
  const { approval: a } = seeded.orgs;
  return `jwt-bearer ${await login(base, a.domain, a.admin, SECRET)}`;
}

describe("notify", () => {
  it("shared: a new link as text; the old one is replaced", async () => {
    const { id, msg } = await created(admin, { signers: [signer()] });
    const response = await admin.notify({ process_id: id, link_expire: 3600 });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const link = await response.text();
    expect(link).toMatch(LINK());
    expect(link).not.toBe(msg);
  });

  it("per-signer: a JSON list of {link, nat_dni}", async () => {
    const a = signer();
    const { id } = await created(perSigner, { signers: [a] });
    const response = await perSigner.notify({ process_id: id });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual([{ link: expect.stringMatching(LINK()), nat_dni: `PER:${a.doc_id}` }]);
  });

  it("approval pending answers approvalPending", async () => {
    const { id } = await created(approval, { signers: [signer()] });
    const response = await approval.notify({ process_id: id });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("approvalPending");
  });

  it("refuses bad input, unknown and closed processes", async () => {
    const { id } = await created(admin, { signers: [signer()] });
    const missing = await admin.notify({});
    expect(missing.status).toBe(400);
    expect(missing.headers.get("x-error-detail")).toContain("process_id");
    const badExpire = await admin.notify({ process_id: id, link_expire: "soon" });
    expect(badExpire.status).toBe(400);
    expect(badExpire.headers.get("x-error-detail")).toContain("link_expire");
    expect((await admin.notify({ process_id: "a".repeat(32) + ":" + "a".repeat(16) })).status).toBe(404);
    await admin.reject([id]);
    const closed = await admin.notify({ process_id: id });
    expect(closed.status).toBe(403);
    expect(await closed.text()).toBe("forbidden");
  });
});
