import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_API_SECRET, ADMIN_PASSWORD } from "../fixtures/start-test-server";
import { SECRET, startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { login, processApi, signer, type ProcessApi } from "../fixtures/process-api-client";
import { StampApiClient, fixture } from "../fixtures/stamp-api-client";

/**
 * Organization A (demo.local) against organization B (per-signer.test): every process-API and
 * stamp-API operation on B's objects answers 404 / `not found` (or leaves B untouched), never B's data.
 */
let seeded: SeededServer;
let a: ProcessApi;
let b: ProcessApi;
let bProcess: string;
let bTxToken: string;
let aStamp: StampApiClient;

beforeAll(async () => {
  seeded = await startSeededServer();
  const base = seeded.server.baseUrl;
  a = processApi(base, await login(base, seeded.orgs.shared.domain, seeded.orgs.shared.admin, ADMIN_API_SECRET));
  b = processApi(base, await login(base, seeded.orgs.perSigner.domain, seeded.orgs.perSigner.admin, SECRET));
  const created = await b.create({ signers: [signer()], description: "Confidencial de B" });
  expect(created.status).toBe(201);
  bProcess = (await created.json()).id;
  expect((await b.saveLabel("Solo-B")).status).toBe(200);
  const bStamp = new StampApiClient(base);
  await bStamp.login("v2", { email: `owner@${seeded.orgs.perSigner.domain}`, password: ADMIN_PASSWORD });
  bTxToken = (await (await bStamp.signPdf({ async: 1 }, { pdf: fixture("pdfs/valid/libreoffice70-tiny.pdf") })).json()).tx_token;
  aStamp = new StampApiClient(base);
  await aStamp.login("v2");
});
afterAll(async () => {
  await seeded?.server.stop();
});

describe("organization A cannot reach organization B", () => {
  it("list by process_id: 404 not found", async () => {
    const response = await a.list({ process_id: bProcess });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("not found");
  });

  it("an unfiltered list never contains B's processes", async () => {
    const response = await a.list({ limit: "100" });
    const text = await response.text();
    expect(text).not.toContain(bProcess);
    expect(text).not.toContain("Confidencial de B");
  });

  it("modify: 404 not found", async () => {
    const response = await a.modify({ process_id: bProcess, description: "hackeado" });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("not found");
  });

  it("notify: 404 not found", async () => {
    const response = await a.notify({ process_id: bProcess });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("not found");
  });

  it("reject (single id): 404 not found, and B's process stays pending", async () => {
    const response = await a.reject([bProcess]);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("not found");
    const mine = await (await b.list({ process_id: bProcess })).json();
    expect(mine.signatureProcesses[0].status).toBe("pending");
    expect(mine.signatureProcesses[0].description).toBe("Confidencial de B");
  });

  it("labels: B's labels are not listed, and deleting one does not touch B", async () => {
    const listed = await (await a.labels({ limit: "100" })).text();
    expect(listed).not.toContain("Solo-B");
    await a.deleteLabel("Solo-B");
    expect(await (await b.labels({ limit: "100" })).text()).toContain("Solo-B");
  });

  it("a process label of B cannot be used by A", async () => {
    const response = await a.create({ signers: [signer()], labels: ["Solo-B"] });
    expect(response.status).toBe(400);
    expect(response.headers.get("x-error-detail")).toContain("labels");
  });

  it("stamp API: B's transaction is not found for A", async () => {
    const response = await aStamp.getSignedPdf(bTxToken);
    expect(response.status).toBe(404);
    expect((await response.json()).success).toBe(false);
  });
});
