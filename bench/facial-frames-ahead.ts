// `npx tsx bench/facial-frames-ahead.ts [tries]`: how long a signer waits for the facial check
// after the capture (POST facial, from the upload to the verdict), against the built server on
// PGlite, a registry photo as the reference. Each try is made twice, on fresh frames (a comment
// segment makes each try's JPEGs new bytes, the pixels unchanged): uploaded only, as before, and
// sent ahead as the page now sends them, at the page's pace (0.8 s, then per movement 1 s and
// three frames 0.5 s apart). Prints figures; asserts nothing about speed.
// `--id-card`: no registry photo, an ID card photo as the reference (OCR), and a third way: the
// frames and the card sent ahead (the card when the capture starts, as the page sends it).
import os from "node:os";
import { ADMIN_API_SECRET } from "../e2e/fixtures/start-test-server";
import { startSeededServer } from "../e2e/fixtures/start-seeded-server";
import { login, processApi, signer } from "../e2e/fixtures/process-api-client";
import { signerHttp } from "../e2e/fixtures/signer-http-flow";
import { uploadRegistryPhoto } from "../e2e/fixtures/signer-documents";
import { poseBytesOf, type Pose } from "../e2e/fixtures/scripted-camera";
import { fixturePath } from "../test/fixtures-dir";
import { photographCard } from "@/lib/id-documents/testing/make-specimen-card";
import { withComment } from "./fresh-jpeg-bytes";

const tries = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 5);
const idCard = process.argv.includes("--id-card");
const CARD_NUMBER = "58321499";
type Sent = "uploaded only" | "frames sent ahead" | "frames and card sent ahead";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

async function main() {
  const poses = poseBytesOf("A");
  const card = idCard ? photographCard({ portrait: "person-a-obama/a1-id-portrait-413x531.jpg", docNumber: CARD_NUMBER, unmarked: true }) : undefined;
  const seeded = await startSeededServer();
  const base = seeded.server.baseUrl;
  const token = await login(base, seeded.orgs.shared.domain, seeded.orgs.shared.admin, ADMIN_API_SECRET);
  const oneTry = async (label: string, sending: Sent) => {
    const ahead = sending !== "uploaded only";
    const person = signer({ signChallenges: ["facial"], ...(card ? { doc_id: CARD_NUMBER } : {}) });
    if (!card) await uploadRegistryPhoto(base, token, person, fixturePath("faces/person-a-obama/a1-id-portrait-413x531.jpg"));
    const created = await processApi(base, token).create({ signers: [person], description: "bench" });
    const flow = signerHttp(base, ((await created.json()) as { msg: string }).msg);
    await flow.identify(person.doc_id);
    await flow.confirmNames("Ana", "Soto");
    const { challenges, ticket } = await flow.startFacialTry();
    const frames = [poses.neutral, ...challenges.flatMap((c) => Array<Uint8Array>(3).fill(poses[c as Pose]))].map((frame, i) => withComment(frame, `${label}-${i}`));
    // the page's pace: the first frame after 0.8 s, then per movement 1 s to react and 3 frames 0.5 s apart
    const gaps = [800, 1000, 500, 500, 1000, 500, 500];
    const sent: Promise<unknown>[] = [];
    const idDocument = card && withComment(card, `${label}-card`);
    if (idDocument && sending === "frames and card sent ahead") sent.push(flow.idDocumentAhead({ ticket, idDocument }).then((r) => r.arrayBuffer()));
    for (const [i, frame] of frames.entries()) {
      await sleep(gaps[i]);
      if (ahead) sent.push(flow.facialFrame({ ticket, frame }).then((r) => r.arrayBuffer()));
    }
    const started = performance.now();
    const answer = await flow.facialTry({ ticket, frames, idDocument });
    const body = (await answer.json()) as { status?: string };
    const waited = performance.now() - started;
    await Promise.all(sent);
    if (body.status !== (card ? "under_review" : "passed")) throw new Error(`try ${label}: ${answer.status} ${JSON.stringify(body)}`);
    return waited;
  };
  await oneTry("warm-up", "uploaded only");
  const ways: Sent[] = card ? ["uploaded only", "frames sent ahead", "frames and card sent ahead"] : ["uploaded only", "frames sent ahead"];
  const waits = new Map<Sent, number[]>(ways.map((way) => [way, []]));
  for (let i = 0; i < tries; i++) for (const way of ways) waits.get(way)!.push(await oneTry(`${way.replace(/\W+/g, "-")}-${i}`, way));
  console.log(`node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model}, load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}; reference: ${card ? "an ID card photo (OCR)" : "a registry photo"}`);
  for (const [way, values] of waits) console.log(`signer's wait after the capture, ${tries} tries each (ms): ${`${way}:`.padEnd(28)} median ${median(values).toFixed(0)} [${values.map((v) => v.toFixed(0)).join(", ")}]`);
  await seeded.server.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
