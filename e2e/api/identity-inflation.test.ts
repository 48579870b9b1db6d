import { spawnSync } from "node:child_process";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCredentials, organizations, users } from "@/db/schema";
import { createCredential } from "@/lib/credentials/create-credential";
import { setCredentialRole } from "@/lib/credentials/set-credential-role";
import { createStaffUser } from "@/lib/organizations/create-staff-user";
import { photographCard, type SpecimenCard } from "@/lib/id-documents/testing/make-specimen-card";
import { fixturePath } from "../../test/fixtures-dir";
import { ADMIN_API_SECRET, ADMIN_EMAIL, ADMIN_PASSWORD } from "../fixtures/start-test-server";
import { SECRET, startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { staffCookie } from "../fixtures/staff-cookie";
import { callServerAction } from "../fixtures/server-action";
import { uploadRegistryPhoto } from "../fixtures/signer-documents";
import { firstSignatureCertificatesText, tempFile, validatePdf } from "../fixtures/independent-validators";
import { login, processApi, signer, waitFor, type ProcessApi } from "../fixtures/process-api-client";
import { poseBytesOf, type Pose } from "../fixtures/scripted-camera";
import { signerHttp } from "../fixtures/signer-http-flow";

/**
 * Issue 36: the identity level cannot be raised by someone inside the organization, nor by whoever
 * holds a forwarded link. Each test carries the attack that worked before: an operator's own face
 * as the victim's reference, a second session signing on the first one's proof, names changed
 * after approval, the creator approving their own process's review, and cards whose expiry or
 * sample mark was not read. OCR and face models run per try: generous limits.
 */
let seeded: SeededServer;
let admin: ProcessApi;
let adminToken: string;
let organizationName = "";
let poses: Record<Pose, Uint8Array>;
const REVIEWER = "revisora@demo.local";
const OPERATOR_STAFF = "operadora@demo.local";
let registrarId = "";
// what the use cases answer an operator who tries to grant identity:registry (seeded before the server starts)
const operatorGrants: unknown[] = [];
const PORTRAIT = "person-a-obama/a1-id-portrait-413x531.jpg";
const people = { reviewed: signer({ doc_id: "52718364" }), sole: signer({ doc_id: "63829475" }), broken: signer({ doc_id: "74930586" }), ene: signer({ doc_id: "85041697" }), muestra: signer({ doc_id: "96152708" }) };
const cards: Record<"reviewed" | "sole" | "broken" | "ene" | "muestra", SpecimenCard> = {
  reviewed: { portrait: PORTRAIT, docNumber: people.reviewed.doc_id, unmarked: true },
  sole: { portrait: PORTRAIT, docNumber: people.sole.doc_id, unmarked: true },
  // a current card whose MRZ expiry check digit is wrong, without a printed date: was taken as undated
  broken: { portrait: PORTRAIT, docNumber: people.broken.doc_id, unmarked: true, expiryCheckDigit: "9", printedExpiry: null },
  ene: { portrait: PORTRAIT, docNumber: people.ene.doc_id, unmarked: true, mrz: false, printedExpiry: "12 ENE 2020" },
  muestra: { portrait: PORTRAIT, docNumber: people.muestra.doc_id, surname: "SOTO", mark: "MUESTRA" },
};

beforeAll(async () => {
  // drawing cards and poses blocks this process: before the server and its sockets
  for (const card of Object.values(cards)) photographCard(card);
  poses = poseBytesOf("A");
  seeded = await startSeededServer({
    seed: async (db, orgs) => {
      await createCredential({ organizationId: orgs.shared.id, clientname: "operator@demo.local", secret: SECRET, role: "operator" }, db);
      await createStaffUser({ organizationId: orgs.shared.id, email: REVIEWER, password: ADMIN_PASSWORD, role: "admin" }, db);
      await createStaffUser({ organizationId: orgs.shared.id, email: OPERATOR_STAFF, password: ADMIN_PASSWORD, role: "operator" }, db);
      registrarId = (await createCredential({ organizationId: orgs.shared.id, clientname: "registro@demo.local", secret: SECRET, role: "operator" }, db)).id;
      operatorGrants.push(
        await setCredentialRole({ organizationId: orgs.shared.id, credentialId: registrarId, role: "operator", grants: ["identity:registry"], actor: OPERATOR_STAFF, grantorRole: "operator" }, db).catch((error: unknown) => error),
        await createCredential({ organizationId: orgs.shared.id, clientname: "escalada@demo.local", secret: SECRET, role: "operator", grants: ["identity:registry"], grantorRole: "operator" }, db).catch((error: unknown) => error),
      );
      // per-signer.test: its owner is the only reviewer, and owns the credential that creates processes
      const [owner] = await db.select().from(users).where(eq(users.email, `owner@${orgs.perSigner.domain}`));
      await db.update(apiCredentials).set({ passwordOfUserId: owner.id }).where(eq(apiCredentials.clientname, orgs.perSigner.admin));
      organizationName = (await db.select().from(organizations).where(eq(organizations.id, orgs.shared.id)))[0].displayName;
    },
  });
  adminToken = await login(seeded.server.baseUrl, seeded.orgs.shared.domain, ADMIN_EMAIL, ADMIN_API_SECRET);
  admin = processApi(seeded.server.baseUrl, adminToken);
}, 300_000);
afterAll(async () => {
  await seeded?.server.stop();
});

const base = () => seeded.server.baseUrl;
const frames = (challenges: string[]) => [poses.neutral, ...challenges.flatMap((c) => Array(3).fill(poses[c as Pose]))];
type Flow = ReturnType<typeof signerHttp>;
async function facialTry(flow: Flow, idDocument?: Uint8Array) {
  const { challenges, ticket } = await flow.startFacialTry();
  const answer = await flow.facialTry({ ticket, frames: frames(challenges), idDocument });
  return { status: answer.status, body: (await answer.json()) as { status?: string; reason?: string } };
}
async function record(id: string, api = admin) {
  const body = (await (await api.list({ process_id: id })).json()) as { signatureProcesses: { status: string; documents: { id: string; pages: number; url: string }[]; signers: { sign_data: Record<string, unknown> & { identity?: Record<string, unknown> } }[] }[] };
  return body.signatureProcesses[0];
}
async function created(person: ReturnType<typeof signer>, api = admin) {
  const answer = await api.create({ signers: [person], description: "Nivel de identidad" });
  expect(answer.status, await answer.clone().text()).toBe(201);
  const { id, msg } = (await answer.json()) as { id: string; msg: string | { link: string }[] };
  return { id, link: typeof msg === "string" ? msg : msg[0].link };
}
async function session(link: string, person: { doc_id: string }, names = ["Ana", "Soto"]) {
  const flow = signerHttp(base(), link);
  expect((await flow.identify(person.doc_id)).status).toBe(200);
  expect((await flow.confirmNames(names[0], names[1])).status).toBe(200);
  return flow;
}
async function pendingReview(cookie: string, docId: string) {
  const queue = (await (await fetch(`${base()}/api/dashboard/identity-reviews`, { headers: { cookie } })).json()) as { reviews: { id: string; signer: { docId: string }; card: Record<string, unknown> }[] };
  return queue.reviews.find((r) => r.signer.docId === docId);
}
const decide = async (cookie: string, reviewId: string) =>
  fetch(`${base()}/api/dashboard/identity-reviews/${reviewId}`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ decision: "approve" }) });

describe("who supplies the reference, and whose session the proof is", () => {
  it("an operator may not supply a reference; an admin's is named in sign_data, the evidence and the certificate; a second session proves again", async () => {
    const person = signer();
    const photo = fixturePath("faces", PORTRAIT);
    // the attack: an operator uploads their own face for the victim's number (201 before)
    const operatorToken = await login(base(), seeded.orgs.shared.domain, "operator@demo.local", SECRET);
    expect((await uploadRegistryPhoto(base(), operatorToken, person, photo)).status).toBe(403);
    const viewerToken = await login(base(), seeded.orgs.shared.domain, seeded.orgs.shared.viewer!, SECRET);
    expect((await uploadRegistryPhoto(base(), viewerToken, person, photo)).status).toBe(403);
    expect((await uploadRegistryPhoto(base(), adminToken, person, photo)).status).toBe(201);

    const { id, link } = await created(person);
    const first = await session(link, person);
    expect(await facialTry(first)).toMatchObject({ status: 200, body: { status: "passed" } });
    // the attack: whoever else holds the link types the (not secret) number and signs on that pass
    const second = await session(link, person);
    const refused = await second.sign();
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ reason: "facial_required" });
    expect((await fetch(`${base()}/api/signer/${second.token}/pages`, { method: "POST", headers: { cookie: second.cookie(), "content-type": "application/json" }, body: JSON.stringify({ documentId: (await record(id)).documents[0].id, pages: [0] }) })).status).toBe(403);
    // it proves on its own; the first session's pass is no longer the signer's latest try
    expect(await facialTry(second)).toMatchObject({ body: { status: "passed" } });
    await second.showEveryPage((await record(id)).documents);
    expect((await first.sign()).status).toBe(403);
    const signed = await second.sign();
    expect(signed.status, await signed.clone().text()).toBe(200);

    const done = await record(id);
    expect(done.signers[0].sign_data.identity).toMatchObject({ level: "registry", referenceBy: { kind: "credential", name: ADMIN_EMAIL } });
    expect(done.signers[0].sign_data.identity).not.toHaveProperty("session");
    const pdf = new Uint8Array(await (await fetch(done.documents[0].url)).arrayBuffer());
    expect(validatePdf(pdf, await (await fetch(`${base()}/api/pki/ca.pem`)).text()).pass).toBe(true);
    // the certificate names who vouched (read with openssl), and /api/verify shows it next to the level
    expect(firstSignatureCertificatesText(pdf)).toMatch(new RegExp(`Subject: C ?= ?PE, O ?= ?${organizationName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    const form = new FormData();
    form.append("file", new Blob([pdf as BlobPart], { type: "application/pdf" }), "documento.pdf");
    const verified = (await (await fetch(`${base()}/api/verify`, { method: "POST", body: form })).json()) as { signatures: { identityLevel?: string; signerOrganization?: string }[] };
    expect(verified.signatures[0]).toMatchObject({ identityLevel: "registry", signerOrganization: organizationName });
    // an eID provider is named only for our own eid signatures (e2e/api/signer-eid.test.ts)
    expect(verified.signatures[0]).not.toHaveProperty("eidIssuer");

    const staff = await staffCookie(base(), ADMIN_EMAIL, ADMIN_PASSWORD);
    const evidence = await fetch(`${base()}/api/dashboard/processes/${encodeURIComponent(id)}/evidence`, { headers: { cookie: staff } });
    const text = spawnSync("pdftotext", ["-layout", tempFile("evidence.pdf", new Uint8Array(await evidence.arrayBuffer())), "-"], { encoding: "utf8" }).stdout.replace(/\s+/g, " ");
    expect(text).toContain(`Foto de referencia aportada por ${ADMIN_EMAIL} (credencial del API)`);
    const sessions = /Identidad probada en la sesión (\S+); firmó en la sesión (\S+)/.exec(text);
    expect(sessions?.[1]).toBe(sessions?.[2]);
    expect(text).toContain(`sesión ${sessions?.[1]}`);
    const audit = await (await fetch(`${base()}/audit`, { headers: { cookie: staff } })).text();
    expect(audit).toContain('title="registry_photo.saved"');
  }, 420_000);
});

describe("a credential may supply references only by its role or an explicit grant", () => {
  it("an operator credential granted identity:registry by an admin uploads; without the grant, or granted by an operator, it gets 403; the grant is audited", async () => {
    const person = signer();
    const photo = fixturePath("faces", PORTRAIT);
    const action = (exportedName: string) => ({ page: "/api-access", exportedName, file: "api-access/actions" });
    const registrarToken = async () => login(base(), seeded.orgs.shared.domain, "registro@demo.local", SECRET);
    // an operator may not grant it: the use case refuses their role, and the dashboard their request
    expect(operatorGrants).toEqual([expect.objectContaining({ code: "FORBIDDEN" }), expect.objectContaining({ code: "FORBIDDEN" })]);
    const operatorStaff = await staffCookie(base(), OPERATOR_STAFF, ADMIN_PASSWORD);
    const refused = await callServerAction(base(), action("setCredentialRoleAction"), [{ credentialId: registrarId, role: "operator", grants: ["identity:registry"] }], operatorStaff);
    expect(refused.result).toMatchObject({ ok: false });
    const refusedCreate = await callServerAction(base(), action("createCredentialAction"), [{ clientname: "operada@demo.local", role: "operator", grants: ["identity:registry"] }], operatorStaff);
    expect(refusedCreate.result).toMatchObject({ ok: false });
    // the same role without the grant
    expect((await uploadRegistryPhoto(base(), await registrarToken(), person, photo)).status).toBe(403);

    // an admin grants it on edit: the same credential's next call may upload
    const admin = await staffCookie(base(), REVIEWER, ADMIN_PASSWORD);
    const granted = await callServerAction(base(), action("setCredentialRoleAction"), [{ credentialId: registrarId, role: "operator", grants: ["identity:registry"] }], admin);
    expect(granted.result).toMatchObject({ ok: true });
    expect((await uploadRegistryPhoto(base(), await registrarToken(), person, photo)).status).toBe(201);
    const supplied = await created(person);
    const flow = await session(supplied.link, person);
    expect(await facialTry(flow)).toMatchObject({ body: { status: "passed" } });
    await flow.showEveryPage((await record(supplied.id)).documents);
    const signed = await flow.sign();
    expect(signed.status, await signed.clone().text()).toBe(200);
    expect((await record(supplied.id)).signers[0].sign_data.identity).toMatchObject({ level: "registry", referenceBy: { kind: "credential", name: "registro@demo.local" } });
    // withdrawn, it is refused again; the grant still is not the operator role's
    expect((await callServerAction(base(), action("setCredentialRoleAction"), [{ credentialId: registrarId, role: "operator", grants: [] }], admin)).result).toMatchObject({ ok: true });
    expect((await uploadRegistryPhoto(base(), await registrarToken(), person, photo)).status).toBe(403);
    expect((await uploadRegistryPhoto(base(), await login(base(), seeded.orgs.shared.domain, "operator@demo.local", SECRET), person, photo)).status).toBe(403);

    // and granted when created
    const made = await callServerAction<{ ok: boolean; data?: { secret: string } }>(base(), action("createCredentialAction"), [{ clientname: "registro2@demo.local", role: "operator", grants: ["identity:registry"] }], admin);
    expect(made.result).toMatchObject({ ok: true });
    const madeToken = await login(base(), seeded.orgs.shared.domain, "registro2@demo.local", made.result!.data!.secret);
    expect((await uploadRegistryPhoto(base(), madeToken, signer(), photo)).status).toBe(201);

    const audit = await (await fetch(`${base()}/audit`, { headers: { cookie: admin } })).text();
    expect(audit).toContain('title="credential.granted"');
  }, 300_000);
});

describe("reviews: the try, the session, the names and who approves", () => {
  it("the creator may not approve while another reviewer exists; an approval signs only its own session, and other names put the signer back under review", async () => {
    const person = people.reviewed;
    const { id, link } = await created(person);
    const first = await session(link, person);
    expect(await facialTry(first, photographCard(cards.reviewed))).toMatchObject({ body: { status: "under_review" } });
    const creator = await staffCookie(base(), ADMIN_EMAIL, ADMIN_PASSWORD);
    const reviewer = await staffCookie(base(), REVIEWER, ADMIN_PASSWORD);
    const review = (await pendingReview(reviewer, person.doc_id))!;
    // the attack: the process's creator (its credential is theirs) approves their own process's review
    const own = await decide(creator, review.id);
    expect(own.status).toBe(403);
    expect((await decide(reviewer, review.id)).status).toBe(200);

    // another session on the link does not inherit the approval
    const second = await session(link, person);
    expect((await second.sign()).status).toBe(403);
    // names other than those the reviewer saw void the approval: back under review, nothing signed
    expect((await first.confirmNames("Pedro", "Impostor")).status).toBe(200);
    const again = await pendingReview(reviewer, person.doc_id);
    expect(again).toBeDefined();
    await first.showEveryPage((await record(id)).documents);
    const asked = await first.sign();
    expect(asked.status, await asked.clone().text()).toBe(200);
    expect(await asked.json()).toMatchObject({ underReview: true, completed: false });
    const waiting = await record(id);
    expect(waiting.status).toBe("pending");
    expect(waiting.signers[0].sign_data.identity).toBeUndefined();
    // approved again, with the names now shown: the signature is made for the session that asked
    expect((await decide(reviewer, again!.id)).status).toBe(200);
    const signed = await waitFor(async () => {
      const current = await record(id);
      return current.status === "signed" && current;
    }, 120_000);
    expect(signed.signers[0].sign_data.identity).toMatchObject({ level: "document-reviewed", reviewedBy: REVIEWER });
    const pdf = new Uint8Array(await (await fetch(signed.documents[0].url)).arrayBuffer());
    expect(firstSignatureCertificatesText(pdf)).toMatch(/GN ?= ?Pedro/);
  }, 420_000);

  it("where the creator is the only reviewer, the approval goes through, audited and shown on the review", async () => {
    const organization = seeded.orgs.perSigner;
    const api = processApi(base(), await login(base(), organization.domain, organization.admin, SECRET));
    const person = people.sole;
    const { id, link } = await created(person, api);
    const flow = await session(link, person);
    expect(await facialTry(flow, photographCard(cards.sole))).toMatchObject({ body: { status: "under_review" } });
    const owner = await staffCookie(base(), `owner@${organization.domain}`, ADMIN_PASSWORD);
    const review = (await pendingReview(owner, person.doc_id))!;
    const approved = await decide(owner, review.id);
    expect(approved.status, await approved.clone().text()).toBe(200);
    expect(await approved.json()).toMatchObject({ soleReviewerException: true });
    const audit = await (await fetch(`${base()}/audit`, { headers: { cookie: owner } })).text();
    expect(audit).toContain('title="identity_review.sole_reviewer_exception"');
    const evidence = await fetch(`${base()}/api/dashboard/processes/${encodeURIComponent(id)}/evidence`, { headers: { cookie: owner } });
    const text = spawnSync("pdftotext", ["-layout", tempFile("evidence.pdf", new Uint8Array(await evidence.arrayBuffer())), "-"], { encoding: "utf8" }).stdout.replace(/\s+/g, " ");
    expect(text).toContain("único revisor de la organización");
  }, 300_000);
});

describe("document checks fail closed", () => {
  it("a broken expiry check digit goes to review with its reason; 12 ENE 2020 is expired; MUESTRA is a sample card", async () => {
    const reviewer = await staffCookie(base(), REVIEWER, ADMIN_PASSWORD);
    const broken = await session((await created(people.broken)).link, people.broken);
    expect(await facialTry(broken, photographCard(cards.broken))).toMatchObject({ body: { status: "under_review" } });
    expect((await pendingReview(reviewer, people.broken.doc_id))?.card).toMatchObject({ expiryProblem: "mrz_expiry_check_digit" });
    for (const [name, reason] of [["ene", "id_document_expired"], ["muestra", "id_document_specimen"]] as const) {
      const flow = await session((await created(people[name])).link, people[name]);
      expect(await facialTry(flow, photographCard(cards[name])), name).toMatchObject({ status: 200, body: { status: "retry", reason } });
    }
  }, 420_000);
});
