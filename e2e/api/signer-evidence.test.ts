import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_API_SECRET, ADMIN_PASSWORD } from "../fixtures/start-test-server";
import { startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { login, processApi, signer, pdf, type ProcessApi } from "../fixtures/process-api-client";
import { qpdfCheck, tempFile, validatePdf } from "../fixtures/independent-validators";
import { staffCookie } from "../fixtures/staff-cookie";

const PHONE_AGENT = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Version/18.1 Mobile/15E148 Safari/604.1";

let seeded: SeededServer;
let api: ProcessApi;
let base: string;

beforeAll(async () => {
  seeded = await startSeededServer();
  base = seeded.server.baseUrl;
  const { shared } = seeded.orgs;
  api = processApi(base, await login(base, shared.domain, shared.admin, ADMIN_API_SECRET));
}, 180_000);
afterAll(async () => {
  await seeded?.server.stop();
});

describe("reading evidence and the evidence summary", () => {
  it("pages shown are recorded per page, signing waits for all of them, and staff of the organization (only) download a signed summary", async () => {
    const person = signer({ signChallenges: [], signerAlias: "Firmante Evidencia" });
    const created = await api.create({ signers: [person], readChallenges: [], description: "Evidencia de lectura" }, [
      { name: "contrato.pdf", bytes: pdf("valid/libreoffice74-contrato-a4.pdf") },
      { name: "anexo.pdf", bytes: pdf("valid/libreoffice70-tiny.pdf") },
    ]);
    expect(created.status, await created.clone().text()).toBe(201);
    const { id: processId, msg: link } = (await created.json()) as { id: string; msg: string };
    const signerApi = `${base}/api/signer/${link.split("/").pop()}`;
    const post = (route: string, body: unknown, cookie?: string) =>
      fetch(`${signerApi}/${route}`, { method: "POST", headers: { "content-type": "application/json", "user-agent": PHONE_AGENT, ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });

    expect((await post("pages", { documentId: "00000000-0000-4000-8000-000000000000", pages: [0] })).status).toBe(401);
    const session = await post("session", {});
    expect(session.status).toBe(200);
    const cookie = session.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    expect((await post("names", { given_name: "Ana", family_name: "Soto" }, cookie)).status).toBe(200);

    const probe = await post("pages", { documentId: "00000000-0000-4000-8000-000000000000", pages: [0] }, cookie);
    expect(probe.status).toBe(400);
    expect(await probe.json()).toMatchObject({ success: false, message: expect.stringContaining("documentId") });
    // the file ids, as the read step names them (in reading order)
    const page = await (await fetch(link, { headers: { cookie } })).text();
    const [contract, annex] = [...page.matchAll(/data-document-id="([0-9a-f-]{36})"/g)].map((m) => ({ id: m[1] }));
    expect(contract && annex).toBeTruthy();

    const bad: [string, unknown, string][] = [
      ["a page past the end", { documentId: contract.id, pages: [2] }, "pages"],
      ["no pages", { documentId: contract.id, pages: [] }, "pages"],
      ["a negative page", { documentId: contract.id, pages: [-1] }, "pages"],
      ["not a uuid", { documentId: "contrato.pdf", pages: [0] }, "documentId"],
    ];
    for (const [name, body, field] of bad) {
      const answer = await post("pages", body, cookie);
      expect(answer.status, name).toBe(400);
      expect(((await answer.json()) as { message: string }).message, name).toContain(field);
    }

    const first = await post("pages", { documentId: contract.id, pages: [0] }, cookie);
    expect(await first.json()).toMatchObject({ success: true, complete: false, documents: [{ documentId: contract.id, pages: 2, shown: 1 }, { documentId: annex.id, pages: 1, shown: 0 }] });
    const early = await fetch(`${signerApi}/sign`, { method: "POST", headers: { cookie, "user-agent": PHONE_AGENT } });
    expect(early.status).toBe(403);
    expect(await early.json()).toMatchObject({ reason: "pages_not_shown" });
    expect(await (await post("pages", { documentId: contract.id, pages: [1, 0] }, cookie)).json()).toMatchObject({ complete: false });
    expect(await (await post("pages", { documentId: annex.id, pages: [0] }, cookie)).json()).toMatchObject({ complete: true });
    const signed = await fetch(`${signerApi}/sign`, { method: "POST", headers: { cookie, "user-agent": PHONE_AGENT } });
    expect(signed.status, await signed.clone().text()).toBe(200);

    // the summary: staff of the organization only
    const evidenceUrl = `${base}/api/dashboard/processes/${encodeURIComponent(processId)}/evidence`;
    expect((await fetch(evidenceUrl)).status).toBe(401);
    const outsider = await staffCookie(base, `owner@${seeded.orgs.perSigner.domain}`, ADMIN_PASSWORD);
    const refused = await fetch(evidenceUrl, { headers: { cookie: outsider } });
    expect(refused.status).toBe(404);
    const staff = await staffCookie(base, seeded.orgs.shared.admin, ADMIN_PASSWORD);
    const answer = await fetch(evidenceUrl, { headers: { cookie: staff } });
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/pdf");
    expect(answer.headers.get("content-disposition")).toMatch(/attachment; filename="evidencias-[0-9a-f]{32}\.pdf"/);
    const summary = new Uint8Array(await answer.arrayBuffer());
    const qpdf = qpdfCheck(summary);
    expect(qpdf.ok, qpdf.output).toBe(true);
    const file = tempFile("evidence.pdf", summary);
    expect(spawnSync("pdfsig", ["-nocert", file], { encoding: "utf8" }).stdout).toMatch(/Signature Validation: Signature is Valid\./);
    const caPem = await (await fetch(`${base}/api/pki/ca.pem`)).text();
    const strict = validatePdf(summary, caPem);
    expect(strict.pass, strict.output).toBe(true);
    expect(strict.signatures).toBe(1);
    const text = spawnSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }).stdout.replace(/\s+/g, " ");
    expect(text).toContain(`Firmante 1 — Firmante Evidencia (PER ${person.doc_id}) · firmado`);
    expect(text).toContain("iPhone OS 18_1");
    expect(text).toContain("por el enlace");
    expect(text).toMatch(/contrato\.pdf: 2 páginas, entre/);
    expect(text).toMatch(/anexo\.pdf: 1 páginas, entre/);
    expect(text).toMatch(/Firmó \d{4}-\d\d-\d\d/);
    expect(text).toContain("signer.signed");
  }, 240_000);
});
