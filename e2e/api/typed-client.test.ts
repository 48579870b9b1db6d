import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { selfieLinkUrl } from "@/lib/processes/selfie-link";
import { photographCard } from "@/lib/id-documents/testing/make-specimen-card";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ADMIN_API_SECRET } from "../fixtures/start-test-server";
import { SECRET, TEST_SECRET_KEY, startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { login, processApi, signer, waitFor, type ProcessApi } from "../fixtures/process-api-client";
import { signerHttp } from "../fixtures/signer-http-flow";
import { fixturePath } from "../../test/fixtures-dir";

/**
 * A client as strict as one written in Go or .NET from the seed documents: every object closed
 * (exact field names), integers where the seed says integer, strings and booleans where it says so.
 * It is written here from the spec, not imported from lib/, so it cannot drift with the server.
 */
const int = z.number().int();
const StampSlot = z.strictObject({ page: int, x: int, y: int, size: int, orientation: z.string() });
const Signer = z.strictObject({
  nat: z.string(),
  doc_id: z.string(),
  signatureType: z.string(),
  signChallenges: z.array(z.string()),
  stampPositions: z.record(z.string().regex(/^\d+$/), z.record(z.string().regex(/^\d+$/), StampSlot)),
  contactInfo: z.strictObject({ type: z.string(), value: z.string(), tz: z.string(), notified: z.boolean() }).nullable(),
  signerAlias: z.string(),
  sign_data: z.strictObject({
    signAction: z.string().optional(),
    facial: z.strictObject({ result: z.boolean(), msg: z.string(), id: z.string(), expire: int, selfie: z.string() }).optional(),
    date: int.optional(),
    result: z.string().optional(),
    // our extension (issue 25): how strongly the signer was identified
    identity: z.strictObject({ level: z.enum(["eid", "registry", "document-reviewed", "document", "none"]), method: z.string(), reviewedBy: z.string().optional(), at: z.string(), provider: z.string().optional() }).optional(),
  }),
  pinfo: z.strictObject({ given_name: z.string(), family_name: z.string() }),
});
const Process = <D extends z.ZodType>(date: D) =>
  z.strictObject({
    id: z.string().regex(/^[0-9a-f]{32}:[0-9a-f]{16}$/),
    status: z.string(),
    date,
    expire: date,
    description: z.string(),
    sign_order: z.boolean(),
    documents: z.array(z.strictObject({ id: z.string(), name: z.string(), pages: int, url: z.string() })),
    signers: z.array(Signer),
    signers_search: z.array(z.string()),
    labels: z.array(z.string()),
    readChallenges: z.array(z.string()),
    urlCallback: z.string(),
    nat: z.string(),
    per_id: z.string(),
  });
const ListPage = z.strictObject({ signatureProcesses: z.array(Process(z.string())), last_item: z.unknown() });
const CallbackPayload = Process(int);

let seeded: SeededServer;
let admin: ProcessApi;
let receiver: http.Server;
let callbackUrl = "";
const received: string[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push(body);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  callbackUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/callback`;
  seeded = await startSeededServer();
  const { shared } = seeded.orgs;
  admin = processApi(seeded.server.baseUrl, await login(seeded.server.baseUrl, shared.domain, shared.admin, ADMIN_API_SECRET));
}, 120_000);
afterAll(async () => {
  await seeded?.server.stop();
  receiver?.close();
});

describe("a strictly typed client decodes list and callback payloads", () => {
  it("integer stamp positions, exact fields, and the names the signers confirmed", async () => {
    const vertical = signer({ signChallenges: [], contactInfo: undefined, stampPositions: { "0": { "1": { size: 2, orientation: "vertical" } } } });
    const horizontal = signer({ signChallenges: [], pinfo: { given_name: "Rosa", family_name: "Quispe" } });
    const created = await admin.create({ signers: [vertical, horizontal], urlCallback: callbackUrl, description: "Cliente tipado" });
    expect(created.status).toBe(201);
    const { id, msg: link } = await created.json();

    const listed = ListPage.parse(await (await admin.list({ process_id: id })).json());
    const before = listed.signatureProcesses[0];
    expect(before.signers.map((s) => s.pinfo)).toEqual([
      { given_name: "", family_name: "" },
      { given_name: "", family_name: "" },
    ]);
    expect(Object.values(before.signers[0].stampPositions["0"])[0]).toMatchObject({ size: 2, orientation: "vertical" });

    for (const [person, names] of [
      [vertical, ["Ana María", "Núñez Güemes"]],
      [horizontal, ["Rosa Elena", "Quispe"]],
    ] as const) {
      const flow = signerHttp(seeded.server.baseUrl, link);
      expect((await flow.identify(person.doc_id)).status).toBe(200);
      const early = await flow.sign();
      expect(early.status).toBe(403);
      expect(await early.json()).toMatchObject({ reason: "names_required" });
      expect((await flow.confirmNames(names[0], names[1])).status).toBe(200);
      await flow.showEveryPage(before.documents);
      const signed = await flow.sign();
      expect(signed.status, await signed.clone().text()).toBe(200);
    }

    const body = await waitFor(async () => received.find((b) => JSON.parse(b).id === id && JSON.parse(b).status === "signed"), 60_000);
    const callback = CallbackPayload.parse(JSON.parse(body));
    expect(callback.signers.map((s) => s.pinfo)).toEqual([
      { given_name: "Ana María", family_name: "Núñez Güemes" },
      { given_name: "Rosa Elena", family_name: "Quispe" },
    ]);
    // the text as sent: no decimal point in any x or y
    expect(body).not.toMatch(/"[xy]":-?\d+\.\d/);
    const after = ListPage.parse(await (await admin.list({ process_id: id })).json()).signatureProcesses[0];
    expect(after.signers.map((s) => s.pinfo)).toEqual(callback.signers.map((s) => s.pinfo));
    expect(after.signers.map((s) => s.stampPositions)).toEqual(callback.signers.map((s) => s.stampPositions));
  }, 180_000);

  it("a decoder that demands integers would have caught the old decimals", () => {
    expect(StampSlot.safeParse({ page: 2, x: 36, y: 725.89, size: 1, orientation: "horizontal" }).success).toBe(false);
    expect(Signer.shape.pinfo.safeParse({ given_name: "", family_name: "", extra: 1 }).success).toBe(false);
  });
});

describe("identity registry import (our extension)", () => {
  const put = (csv: string, token = admin) => fetch(`${seeded.server.baseUrl}/api/identity_registry`, { method: "PUT", headers: { ...token, "content-type": "text/csv" }, body: csv });
  let admin: Record<string, string>;
  beforeAll(async () => {
    const { shared } = seeded.orgs;
    admin = { authorization: `jwt-bearer ${await login(seeded.server.baseUrl, shared.domain, shared.admin, ADMIN_API_SECRET)}` };
  });

  it("imports a CSV and the signer page proposes those names; a bad row is a 400 naming the line", async () => {
    const person = signer({ signChallenges: [] });
    const imported = await put(`nat,doc_id,given_name,family_name\nPER,${person.doc_id},Rosa Elena,Quispe Mamani\n`);
    expect(imported.status).toBe(200);
    expect(await imported.json()).toEqual({ imported: 1 });
    const bad = await put("nat,doc_id,given_name,family_name\nPER,123,Rosa,Quispe\n");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe("bad request");
    expect(bad.headers.get("x-error-detail")).toContain("csv");
    expect((await put("x", {})).status).toBe(401);

    const created = await processApi(seeded.server.baseUrl, admin.authorization.split(" ")[1]).create({ signers: [person] });
    const { msg: link } = await created.json();
    const flow = signerHttp(seeded.server.baseUrl, link);
    await flow.identify(person.doc_id);
    const page = await fetch(link, { headers: { cookie: flow.cookie() } });
    const html = await page.text();
    expect(html).toContain('data-source="registry"');
    expect(html).toContain('value="Rosa Elena"');
    expect(html).toContain('value="Quispe Mamani"');
  }, 120_000);
});

describe("sign_data.facial.selfie is a signed, expiring link to the decrypted selfie", () => {
  it("serves it to a credential with biometrics:read of the same organization, and to nobody else", async () => {
    const base = seeded.server.baseUrl;
    const { shared, perSigner } = seeded.orgs;
    const person = signer({ signChallenges: ["facial"] });
    const { id, msg: link } = await (await admin.create({ signers: [person], description: "selfie" })).json();
    const flow = signerHttp(base, link);
    expect((await flow.identify(person.doc_id)).status).toBe(200);
    const face = new Uint8Array(fs.readFileSync(fixturePath("faces/person-a-obama/a2-selfie-like-480x640.jpg")));
    const card = photographCard({ portrait: "person-a-obama/a1-id-portrait-413x531.jpg", docNumber: person.doc_id, unmarked: true });
    // identical frames: a judged try that fails liveness, recorded with its selfie
    const { ticket } = await flow.startFacialTry();
    const tried = await flow.facialTry({ ticket, frames: Array(7).fill(face), idDocument: card });
    expect(tried.status, await tried.clone().text()).toBe(200);

    const listed = ListPage.parse(await (await admin.list({ process_id: id })).json()).signatureProcesses[0];
    const facial = listed.signers[0].sign_data.facial!;
    expect(facial.selfie).toMatch(new RegExp(`^${base}/api/selfies/[0-9a-f-]{36}\\?try=[0-9a-f-]{36}&expires=\\d+&signature=[\\w-]+$`));
    expect(facial.selfie).not.toContain(shared.id);
    expect(facial.selfie).not.toMatch(/\.enc|selfies\/.*\.jpg/);

    const bearer = async (org: string, clientname: string, password: string) => ({ authorization: `jwt-bearer ${await login(base, org, clientname, password)}` });
    const owner = await bearer(shared.domain, shared.admin, ADMIN_API_SECRET);
    const served = await fetch(facial.selfie, { headers: owner });
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    const bytes = new Uint8Array(await served.arrayBuffer());
    expect([bytes[0], bytes[1], bytes[2]]).toEqual([0xff, 0xd8, 0xff]);

    expect((await fetch(facial.selfie)).status).toBe(401);
    const viewer = await fetch(facial.selfie, { headers: await bearer(shared.domain, shared.viewer!, SECRET) });
    expect(viewer.status).toBe(403);
    const otherOrganization = await fetch(facial.selfie, { headers: await bearer(perSigner.domain, perSigner.admin, SECRET) });
    expect(otherOrganization.status).toBe(404);
    const forged = await fetch(facial.selfie.replace(/signature=[\w-]+/, "signature=AAAA"), { headers: owner });
    expect(forged.status).toBe(404);
    const stretched = await fetch(facial.selfie.replace(/expires=(\d+)/, (_m, e) => `expires=${Number(e) + 3600}`), { headers: owner });
    expect(stretched.status).toBe(404);

    // a genuine link, issued 200 s ago, has expired (120 s)
    const url = new URL(facial.selfie);
    const secretKey = crypto.createHash("sha256").update(TEST_SECRET_KEY).digest();
    const old = selfieLinkUrl(
      { organizationId: shared.id, signerId: url.pathname.split("/").pop()!, facialId: url.searchParams.get("try")! },
      { secretKey, publicUrl: base },
      Date.now() - 200_000,
    );
    const expired = await fetch(old, { headers: owner });
    expect(expired.status).toBe(410);
    expect(await expired.text()).toBe("gone");
  }, 180_000);
});
