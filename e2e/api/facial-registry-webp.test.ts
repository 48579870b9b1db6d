import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { declareWebpSize, encodeWebp } from "@/lib/faces/testing/encode-webp";
import { fixturePath } from "../../test/fixtures-dir";
import { ADMIN_API_SECRET } from "../fixtures/start-test-server";
import { startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { login, processApi, signer, type ProcessApi } from "../fixtures/process-api-client";
import { poseBytesOf, type Pose } from "../fixtures/scripted-camera";
import { signerHttp } from "../fixtures/signer-http-flow";
import { facialAnswerOf, framesFor } from "../fixtures/facial-answers";

/**
 * A registry photo (the face reference an integrator uploads) in WebP: accepted and matched like a
 * JPEG, and a decompression bomb refused by its header before any pixel is decoded.
 */
let seeded: SeededServer;
let admin: ProcessApi;
let adminToken: string;
let poses: Record<Pose, Uint8Array>;

beforeAll(async () => {
  // first: making the poses blocks this process, and a kept-alive socket would go stale meanwhile
  poses = poseBytesOf("A");
  seeded = await startSeededServer();
  const { shared } = seeded.orgs;
  adminToken = await login(seeded.server.baseUrl, shared.domain, shared.admin, ADMIN_API_SECRET);
  admin = processApi(seeded.server.baseUrl, adminToken);
}, 300_000);
afterAll(async () => {
  await seeded?.server.stop();
});

async function identifiedSigner(person: ReturnType<typeof signer>) {
  const created = await admin.create({ signers: [person], description: "Foto de registro WebP" });
  expect(created.status, await created.clone().text()).toBe(201);
  const flow = signerHttp(seeded.server.baseUrl, ((await created.json()) as { msg: string }).msg);
  expect((await flow.identify(person.doc_id)).status).toBe(200);
  return { flow };
}

describe("WebP reference photos", () => {
  const putRegistryPhoto = (person: { nat: string; doc_id: string }, photo: Uint8Array) => {
    const form = new FormData();
    form.append("nat", person.nat);
    form.append("doc_id", person.doc_id);
    form.append("photo", new Blob([Buffer.from(photo)], { type: "image/webp" }), "photo.webp");
    return fetch(`${seeded.server.baseUrl}/api/registry_photos`, { method: "PUT", headers: { authorization: `jwt-bearer ${adminToken}` }, body: form });
  };
  const portrait = new Uint8Array(fs.readFileSync(fixturePath("faces/person-a-obama/a1-id-portrait-413x531.jpg")));

  it("a registry photo in WebP is accepted and matched; a WebP bomb (16384 × 16384 declared) is refused", async () => {
    const person = signer({ signChallenges: ["facial"] });
    const stored = await putRegistryPhoto(person, await encodeWebp(portrait));
    expect(stored.status, await stored.clone().text()).toBe(201);
    const { flow } = await identifiedSigner(person);
    expect((await flow.confirmNames("Ana", "Soto")).status).toBe(200);
    const { challenges, ticket } = await flow.startFacialTry();
    expect(await facialAnswerOf(await flow.facialTry({ ticket, frames: framesFor(poses, challenges, (c) => c as Pose) }))).toMatchObject({ body: { status: "passed" } });

    // 268 megapixels declared by a 1 kB file: refused by its header, the decoder never allocates it (lib/images/read-webp-header.test.ts)
    const bomb = declareWebpSize(await encodeWebp(portrait, { lossless: true, maxSide: 64 }), 16384, 16384);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const refused = await putRegistryPhoto(signer(), bomb);
    expect([refused.status, await refused.text()]).toEqual([400, "bad request"]);
    expect(decodeURIComponent(refused.headers.get("x-error-detail") ?? "")).toMatch(/megapíxeles/);
  }, 300_000);
});
