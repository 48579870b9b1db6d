import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { photographCard } from "@/lib/id-documents/testing/make-specimen-card";
import { SECRET, startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { login, processApi, signer, type ProcessApi } from "../fixtures/process-api-client";
import { fixturePath } from "../../test/fixtures-dir";

let seeded: SeededServer;
let api: ProcessApi;

beforeAll(async () => {
  seeded = await startSeededServer();
  const { perSigner } = seeded.orgs;
  api = processApi(seeded.server.baseUrl, await login(seeded.server.baseUrl, perSigner.domain, perSigner.admin, SECRET));
}, 180_000);
afterAll(async () => {
  await seeded?.server.stop();
});

describe("ID-number and facial checks are atomic under parallel requests (PGlite and PostgreSQL)", () => {
  it("20 parallel tries, 19 wrong numbers and the right one: at most 5 wrong ones are counted, the fifth locks, and only a lock refuses the right one", async () => {
    const person = signer({ signChallenges: [] });
    const response = await api.create({ signers: [person], description: "carrera de DNI" });
    expect(response.status, await response.clone().text()).toBe(201);
    const [{ link }] = (await response.json()).msg as { link: string }[];
    const token = link.split("/").pop()!;
    const numbers = [...Array.from({ length: 19 }, (_, i) => String(20_000_000 + i)), person.doc_id];
    const statuses = await Promise.all(
      numbers.map((docId) =>
        fetch(`${seeded.server.baseUrl}/api/signer/${token}/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ nat: "PER", docId }) }).then((r) => r.status),
      ),
    );
    const succeeded = statuses.at(-1) === 200;
    // a wrong number is answered as wrong, or 423 when it is refused or is the fifth and locks: at most four are answered as wrong
    const wrongAnswered = statuses.slice(0, -1).filter((status) => status !== 423).length;
    expect(wrongAnswered, JSON.stringify(statuses)).toBeLessThanOrEqual(4);
    const after = await fetch(`${seeded.server.baseUrl}/api/signer/${token}/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ nat: "PER", docId: person.doc_id }) });
    // The right number is not counted, so the link ends locked only when five wrong numbers were
    // counted, the fifth answered 423. A right number refused as locked means five were counted
    // already; one that got in leaves the link open unless four wrong ones were answered as wrong and
    // a fifth locked it afterwards (CI met that order).
    if (!succeeded) expect(after.status).toBe(423);
    else if (wrongAnswered < 4) expect(after.status).toBe(200);
    else expect([200, 423]).toContain(after.status);
  });

  it("4 wrong numbers in parallel with the right one: each wrong one is answered as wrong, the right one gets in, and the link stays open", async () => {
    const person = signer({ signChallenges: [] });
    const response = await api.create({ signers: [person], description: "carrera de DNI, cuatro errores" });
    expect(response.status, await response.clone().text()).toBe(201);
    const token = ((await response.json()).msg as { link: string }[])[0].link.split("/").pop()!;
    const tryNumber = (docId: string) =>
      fetch(`${seeded.server.baseUrl}/api/signer/${token}/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ nat: "PER", docId }) }).then(async (r) => ({ status: r.status, body: await r.json() }));
    // the right number in the middle, so it often arrives while wrong ones are still being counted
    const answers = await Promise.all(["20000001", "20000002", person.doc_id, "20000003", "20000004"].map(tryNumber));
    expect(answers.map((a) => a.status), JSON.stringify(answers)).toEqual([400, 400, 200, 400, 400]);
    expect(answers.filter((a) => a.status === 400).map((a) => a.body.attemptsLeft).sort()).toEqual([1, 2, 3, 4]);
    expect((await tryNumber(person.doc_id)).status).toBe(200);
    // the four are still counted: the fifth wrong one locks
    expect((await tryNumber("20000005")).status).toBe(423);
    expect((await tryNumber(person.doc_id)).status).toBe(423);
  });

  it("6 parallel facial tries, each with its own ticket: exactly 3 are evaluated, the rest are refused as locked", async () => {
    const person = signer({ signChallenges: ["facial"] });
    const response = await api.create({ signers: [person], description: "carrera facial" });
    expect(response.status, await response.clone().text()).toBe(201);
    const token = ((await response.json()).msg as { link: string }[])[0].link.split("/").pop()!;
    const session = await fetch(`${seeded.server.baseUrl}/api/signer/${token}/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ nat: "PER", docId: person.doc_id }) });
    expect(session.status).toBe(200);
    const cookie = session.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const face = fs.readFileSync(fixturePath("faces/person-a-obama/a2-selfie-like-480x640.jpg"));
    // no registry photo: the reference is the portrait of a made-up ID card (no ESPECIMEN mark, which is refused) bearing the signer's number
    const card = photographCard({ portrait: "person-a-obama/a1-id-portrait-413x531.jpg", docNumber: person.doc_id, unmarked: true });
    // a ticket works once and a signer gets 6 per 10 minutes: one ticket per try, all of them
    const tickets: string[] = [];
    for (let i = 0; i < 6; i++) {
      const ticketAnswer = await fetch(`${seeded.server.baseUrl}/api/signer/${token}/facial/challenge`, { method: "POST", headers: { cookie } });
      expect(ticketAnswer.status).toBe(200);
      tickets.push(((await ticketAnswer.json()) as { ticket: string }).ticket);
    }
    const tryOnce = (ticket: string) => {
      const form = new FormData();
      form.append("ticket", ticket);
      // identical frames: a judged try that fails liveness, so each one counts
      for (let i = 0; i < 7; i++) form.append("frame", new Blob([face], { type: "image/jpeg" }), `f${i}.jpg`);
      form.append("idDocument", new Blob([Buffer.from(card)], { type: "image/jpeg" }), "dni.jpg");
      return fetch(`${seeded.server.baseUrl}/api/signer/${token}/facial`, { method: "POST", headers: { cookie }, body: form }).then(async (r) => ({ status: r.status, body: await r.json() }));
    };
    const answers = await Promise.all(tickets.map(tryOnce));
    const evaluated = answers.filter((a) => a.status === 200 && (a.body.status === "failed" || a.body.status === "locked" || a.body.status === "passed"));
    expect(evaluated.length).toBe(3);
    // the browser learns pass/fail and a reason only: no similarity, threshold or liveness codes
    for (const { body } of evaluated) {
      expect(Object.keys(body).sort()).toEqual(expect.arrayContaining(["attemptsLeft", "status", "success"]));
      expect(Object.keys(body).every((key) => ["success", "status", "reason", "attemptsLeft"].includes(key)), JSON.stringify(body)).toBe(true);
      expect(JSON.stringify(body)).not.toMatch(/similarity|threshold|score|antispoof|frames-identical|0\.\d{2,}/);
    }
    expect(answers.filter((a) => a.status === 423).length).toBe(3);
  }, 180_000);
});

