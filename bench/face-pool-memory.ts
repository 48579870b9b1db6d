// The face pool's worker after its warm-up (what a signer's first facial step starts: POST
// …/facial/challenge runs "warm-facial-check"), read from the built server's /api/metrics, with
// the warm-up's duration (queued to answered, the worker's boot included) and the server's RSS then. Prints figures only. Build first (`npx next build`); `npx tsx bench/face-pool-memory.ts`.
import { ADMIN_API_SECRET } from "../e2e/fixtures/start-test-server";
import { startSeededServer } from "../e2e/fixtures/start-seeded-server";
import { login, processApi, signer } from "../e2e/fixtures/process-api-client";
import { signerHttp } from "../e2e/fixtures/signer-http-flow";
import { rssMb } from "./server-process";
const METRICS_TOKEN = "bench-face-pool-metrics-token-0123456789";
const WAIT_FOR_WARM_UP_S = 120;
async function main() {
  const seeded = await startSeededServer({ env: { METRICS_TOKEN } });
  try {
    const { shared } = seeded.orgs;
    const admin = processApi(seeded.server.baseUrl, await login(seeded.server.baseUrl, shared.domain, shared.admin, ADMIN_API_SECRET));
    const person = signer({ signChallenges: ["facial"] });
    const created = await admin.create({ signers: [person], description: "face pool memory" });
    const flow = signerHttp(seeded.server.baseUrl, ((await created.json()) as { msg: string }).msg);
    await flow.identify(person.doc_id);
    await flow.startFacialTry();
    const read = async () => {
      const text = await (await fetch(`${seeded.server.baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
      return text.split("\n").filter((line) => line.startsWith('firmaviva_pool_worker_memory_bytes{pool="face"') || line.startsWith('firmaviva_pool_task_duration_seconds_count{pool="face"') || line.startsWith('firmaviva_pool_task_duration_seconds_sum{pool="face"'));
    };
    for (let second = 0; second < WAIT_FOR_WARM_UP_S; second++) {
      const lines = await read();
      if (lines.some((line) => line.includes("warm-facial-check") && line.includes('outcome="ok"'))) {
        // the worker answers its memory between tasks: read it once the warm-up has answered
        for (const line of await read()) console.log(line.includes("bytes") ? line.replace(/ (\d+)$/, (_, n) => ` ${(Number(n) / 1048576).toFixed(1)} MB`) : line);
        console.log(`server RSS ${rssMb(seeded.server.process.pid!).toFixed(0)} MB`);
        return;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
    console.log("warm-up never finished", await read());
  } finally {
    await seeded.server.stop();
  }
}
main();
