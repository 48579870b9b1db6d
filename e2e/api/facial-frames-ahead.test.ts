import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_API_SECRET } from "../fixtures/start-test-server";
import { startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { login, processApi, signer } from "../fixtures/process-api-client";
import { signerHttp } from "../fixtures/signer-http-flow";
import { uploadRegistryPhoto } from "../fixtures/signer-documents";
import { poseBytesOf, type Pose } from "../fixtures/scripted-camera";
import { fixturePath } from "../../test/fixtures-dir";

/**
 * Frames the signer page sends as they are taken (POST facial/frame), analysed while the signer
 * makes the next movement. They only save time: a try is judged on the frames it uploads.
 */
let seeded: SeededServer;
let poses: Record<"A" | "B", Record<Pose, Uint8Array>>;
const PORTRAIT_A = "person-a-obama/a1-id-portrait-413x531.jpg";
const noFace = new Uint8Array(fs.readFileSync(fixturePath("faces/no-face/no-face-chandelier-480x640.jpg")));

beforeAll(async () => {
  // drawing the poses blocks this process: before the server and its sockets
  poses = { A: poseBytesOf("A"), B: poseBytesOf("B") };
  seeded = await startSeededServer();
}, 300_000);
afterAll(async () => {
  await seeded?.server.stop();
});

const framesOf = (person: "A" | "B", challenges: string[]) => [poses[person].neutral, ...challenges.flatMap((c) => Array<Uint8Array>(3).fill(poses[person][c as Pose]))];
const answer = async (response: Response) => ({ status: response.status, body: (await response.json()) as Record<string, unknown> });

/** A signer of person A's registry photo, identified, with names confirmed. */
async function signerOfA() {
  const { shared } = seeded.orgs;
  const token = await login(seeded.server.baseUrl, shared.domain, shared.admin, ADMIN_API_SECRET);
  const person = signer({ signChallenges: ["facial"] });
  expect((await uploadRegistryPhoto(seeded.server.baseUrl, token, person, fixturePath("faces", PORTRAIT_A))).status).toBe(201);
  const created = await processApi(seeded.server.baseUrl, token).create({ signers: [person], description: "frames ahead" });
  expect(created.status, await created.clone().text()).toBe(201);
  const flow = signerHttp(seeded.server.baseUrl, ((await created.json()) as { msg: string }).msg);
  expect((await flow.identify(person.doc_id)).status).toBe(200);
  expect((await flow.confirmNames("Ana", "Soto")).status).toBe(200);
  return flow;
}

describe("facial frames sent ahead of the try", () => {
  it("each frame is taken as it comes; the try that uploads them passes", async () => {
    const flow = await signerOfA();
    const { challenges, ticket } = await flow.startFacialTry();
    const frames = framesOf("A", challenges);
    for (const frame of frames) expect(await answer(await flow.facialFrame({ ticket, frame }))).toMatchObject({ status: 200, body: { success: true, face: true } });
    expect(await answer(await flow.facialTry({ ticket, frames }))).toMatchObject({ status: 200, body: { status: "passed" } });
  }, 300_000);

  it("a try is judged on the frames it uploads, not on those sent ahead: another face ahead passes nobody", async () => {
    const flow = await signerOfA();
    // the attack: the signer's own face is sent ahead, another person's frames are uploaded
    const first = await flow.startFacialTry();
    for (const frame of framesOf("A", first.challenges)) expect((await flow.facialFrame({ ticket: first.ticket, frame })).status).toBe(200);
    expect(await answer(await flow.facialTry({ ticket: first.ticket, frames: framesOf("B", first.challenges) }))).toMatchObject({ status: 200, body: { status: "failed", reason: "no_match" } });
    // and the other way round: another face ahead does not spoil the signer's own frames
    const second = await flow.startFacialTry();
    for (const frame of framesOf("B", second.challenges)) expect((await flow.facialFrame({ ticket: second.ticket, frame })).status).toBe(200);
    expect(await answer(await flow.facialTry({ ticket: second.ticket, frames: framesOf("A", second.challenges) }))).toMatchObject({ status: 200, body: { status: "passed" } });
  }, 300_000);

  it("refuses what a try would refuse, and more than a try's frames per ticket", async () => {
    const flow = await signerOfA();
    const { ticket } = await flow.startFacialTry();
    // a frame without a face is analysed and said so; it is still a frame of the ticket
    expect(await answer(await flow.facialFrame({ ticket, frame: noFace }))).toMatchObject({ status: 200, body: { face: false } });
    expect(await answer(await flow.facialFrame({ ticket: `${ticket.slice(0, -4)}AAAA`, frame: poses.A.neutral }))).toMatchObject({ status: 400, body: { reason: "ticket_invalid" } });
    const png = new Uint8Array(fs.readFileSync(fixturePath("images/portrait-16bit-240x320.png")));
    expect(await answer(await flow.facialFrame({ ticket, frame: png, type: "image/png" }))).toMatchObject({ status: 400, body: { success: false } });
    const withoutSession = await fetch(`${seeded.server.baseUrl}/api/signer/${flow.token}/facial/frame`, { method: "POST", body: new FormData() });
    expect(withoutSession.status).toBe(401);
    // 8 frames make a try at most: the 8th is taken, the 9th refused
    for (let i = 2; i <= 8; i++) expect((await flow.facialFrame({ ticket, frame: poses.A.neutral })).status, `frame ${i}`).toBe(200);
    expect(await answer(await flow.facialFrame({ ticket, frame: poses.A.neutral }))).toMatchObject({ status: 429, body: { reason: "too_many_frames" } });
  }, 300_000);

  it("50 frames of one ticket at once: exactly 8 are taken, the rest refused", async () => {
    const flow = await signerOfA();
    const { ticket } = await flow.startFacialTry();
    // a picture without a face is the cheapest analysis; the same bytes are analysed once
    const statuses = await Promise.all(Array.from({ length: 50 }, () => flow.facialFrame({ ticket, frame: noFace }).then(answer)));
    expect(statuses.filter((s) => s.status === 200 && s.body.face === false)).toHaveLength(8);
    expect(statuses.filter((s) => s.status === 429 && s.body.reason === "too_many_frames")).toHaveLength(42);
  }, 300_000);
});
