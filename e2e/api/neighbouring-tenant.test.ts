import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { asc, eq } from "drizzle-orm";
import { certificateHolders } from "@/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD } from "../fixtures/start-test-server";
import { startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { deleteStampBlobs } from "../fixtures/delete-stamp-blobs";
import { StampApiClient, fixture } from "../fixtures/stamp-api-client";
import { tempFile, validatePdf } from "../fixtures/independent-validators";

/**
 * Issue 26, "the neighbouring tenant": what one organization could learn about or take from another
 * on a shared deployment (tx_token, the public /verify page, the identity a holder certificate asserts).
 */
let seeded: SeededServer;
let a: StampApiClient;
let b: StampApiClient;
let caPem: string;
const contract = fixture("pdfs/valid/libreoffice74-contrato-a4.pdf");
const signer = { names: "Ana", last_names: "Quispe Mamani", person_id: "45678912", nationality: "PER", person_id_type: "DNI" };

async function signedPdf(response: Response): Promise<Uint8Array> {
  const body = await response.json();
  expect(body, JSON.stringify(body).slice(0, 300)).toMatchObject({ success: true, message: "OK" });
  return new Uint8Array(Buffer.from(body.signed_pdf, "base64"));
}
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const page = async (pathname: string) => (await fetch(`${seeded.server.baseUrl}${pathname}`)).text();

beforeAll(async () => {
  seeded = await startSeededServer();
  a = new StampApiClient(seeded.server.baseUrl);
  await a.login("v2");
  b = new StampApiClient(seeded.server.baseUrl);
  await b.login("v2", { email: `owner@${seeded.orgs.perSigner.domain}`, password: ADMIN_PASSWORD });
  caPem = await a.caPem();
}, 180_000);
afterAll(async () => {
  await seeded?.server.stop();
});

describe("tx_token is unique per organization", () => {
  it("a second organization creates the same tx_token (no 409 that would tell it the first one exists); each keeps its own", async () => {
    const token = "SharedTokenAcrossOrg";
    const first = await signedPdf(await a.signPdf({ ...signer, tx_token: token }, { pdf: contract }));
    // within one organization a reuse is still refused
    const again = await a.signPdf({ ...signer, tx_token: token }, { pdf: contract });
    expect(again.status).toBe(409);
    // before issue 26 this answered 409 "tx_token reused": an existence oracle, and a way to take tokens first
    const theirs = await signedPdf(await b.signPdf({ ...signer, names: "Berta", tx_token: token }, { pdf: contract }));
    expect(sha256(theirs)).not.toBe(sha256(first));
    // getSignedPDF answers each organization with its own document
    const ownA = await (await a.getSignedPdf(token)).json();
    const ownB = await (await b.getSignedPdf(token)).json();
    expect(sha256(Buffer.from(ownA.signed_pdf, "base64"))).toBe(sha256(first));
    expect(sha256(Buffer.from(ownB.signed_pdf, "base64"))).toBe(sha256(theirs));
    // the public page is scoped by the organization the QR names; a link without it keeps naming the first
    expect(await page(`/verify/${token}?org=${seeded.orgs.shared.domain}`)).toContain(sha256(first));
    expect(await page(`/verify/${token}?org=${seeded.orgs.perSigner.domain}`)).toContain(sha256(theirs));
    expect(await page(`/verify/${token}`)).toContain(sha256(first));
    expect(await page(`/verify/${token}?org=nobody.test`)).toContain("No existe una firma");
  });

  it("parallel claims of one tx_token in one organization: exactly one wins", async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => b.signPdf({ ...signer, tx_token: "RacingTokenPerOrg001" }, { pdf: contract })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
  });
});

describe("/verify/<tx_token> answers from the verdict recorded at signing", () => {
  it("still shows the signature, its fingerprint and level after the stored PDF is gone (it never reads it)", async () => {
    const token = "BlobGoneVerifyToken1";
    const pdf = await signedPdf(await a.signPdf({ ...signer, tx_token: token }, { pdf: contract }));
    await deleteStampBlobs(seeded, { organizationId: seeded.orgs.shared.id, txToken: token });
    // the blob really is gone: the integrator's download says so
    expect((await a.getSignedPdf(token)).status).toBe(410);
    const html = await page(`/verify/${token}?org=${seeded.orgs.shared.domain}`);
    expect(html).toContain(sha256(pdf));
    expect(html).toContain("Firmado");
    expect(html).toMatch(/data-testid="verify-pades-level"[^>]*>B-LT</);
    expect(html).not.toContain("ya no está disponible");
  });
});

describe("holder certificates name the organization that vouched", () => {
  const holder = { sign_username: "aquispe", sign_password: "Holder-Password-1", sign_pin: "4821" };

  it("O = the enrolling organization, in the subject, in pdfsig's output and in /api/verify; a holder of another organization names that one", async () => {
    const enrolled = await a.postForm("/api/v2/certificateHolders", { ...holder, source: "built-in", names: "Ana", last_names: "Quispe Mamani", person_id: "45678912" });
    expect(enrolled.status, await enrolled.clone().text()).toBe(201);
    expect((await enrolled.json()).subject).toContain(`O=${seeded.orgs.shared.domain}`);
    const pdf = await signedPdf(await a.signPdf({ sign_type: "digital", ...holder }, { pdf: contract }));
    const result = validatePdf(pdf, caPem);
    expect(result.pass, result.output).toBe(true);
    const pdfsig = execFileSync("pdfsig", [tempFile("holder-o.pdf", pdf)], { encoding: "utf8" });
    expect(pdfsig).toMatch(new RegExp(`Signer full Distinguished Name: .*O=${seeded.orgs.shared.domain.replace(/\./g, "\\.")}`));
    const form = new FormData();
    form.append("file", new Blob([pdf as BlobPart], { type: "application/pdf" }), "firmado.pdf");
    const report = await (await fetch(`${seeded.server.baseUrl}/api/verify`, { method: "POST", body: form })).json();
    expect(report.signatures[0]).toMatchObject({ signer: "Ana Quispe Mamani", signerOrganization: seeded.orgs.shared.domain, status: "valid" });

    // the same name and ID number typed by the neighbouring organization: its certificate says so
    const theirs = await b.postForm("/api/v2/certificateHolders", { ...holder, source: "built-in", names: "Ana", last_names: "Quispe Mamani", person_id: "45678912" });
    expect(theirs.status, await theirs.clone().text()).toBe(201);
    expect((await theirs.json()).subject).toContain(`O=${seeded.orgs.perSigner.domain}`);
  });

  it("records who enrolled each holder", async () => {
    await seeded.server.stop();
    const rows = await seeded.withDb((db) =>
      db.select({ by: certificateHolders.enrolledBy, userId: certificateHolders.enrolledByUserId }).from(certificateHolders).where(eq(certificateHolders.signUsername, "aquispe")).orderBy(asc(certificateHolders.enrolledBy)),
    );
    expect(rows.map((r) => r.by)).toEqual([`admin@${seeded.orgs.shared.domain}`, `owner@${seeded.orgs.perSigner.domain}`]);
    expect(rows.every((r) => r.userId)).toBe(true);
  });
});
