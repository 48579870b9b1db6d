import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRET, startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { login, processApi, signer, type ProcessApi } from "../fixtures/process-api-client";

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

describe("ID-number checks are atomic under parallel requests (PGlite and PostgreSQL)", () => {
  it("20 parallel tries, 19 wrong numbers and the right one: at most 5 are evaluated, and then the right number is refused too", async () => {
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
    const locked = statuses.filter((status) => status === 423).length;
    const evaluated = statuses.length - locked;
    expect(evaluated).toBeLessThanOrEqual(5);
    const succeeded = statuses.at(-1) === 200;
    const after = await fetch(`${seeded.server.baseUrl}/api/signer/${token}/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ nat: "PER", docId: person.doc_id }) });
    // unless the right number was among the five evaluated (its attempt given back), the link is locked
    expect(after.status).toBe(succeeded ? 200 : 423);
  });
});
