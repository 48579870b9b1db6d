// `npx tsx bench/first-request.ts`: the first plain signPDF requests on a fresh built server, sent as
// soon as /api/health/ready answers 200 (what a load balancer waits for), one after another. Prints
// their latencies; asserts nothing. Build first (`npx next build`).
import { startTestServer } from "../e2e/fixtures/start-test-server";
import { StampApiClient, fixture } from "../e2e/fixtures/stamp-api-client";
const pdf = fixture("pdfs/valid/libreoffice70-tiny.pdf");
const REQUESTS = 3;
const READY_WITHIN_MS = 60_000;
const plain = { names: "José", last_names: "Pérez", person_id: "12345678", binary_resp: 1 };
async function main() {
  const server = await startTestServer({});
  try {
    const giveUpAt = Date.now() + READY_WITHIN_MS;
    for (;;) {
      const ready = await fetch(`${server.baseUrl}/api/health/ready`);
      await ready.text();
      if (ready.ok) break;
      if (Date.now() > giveUpAt) throw new Error(`not ready within ${READY_WITHIN_MS} ms (last answer ${ready.status})`);
    }
    const api = new StampApiClient(server.baseUrl);
    await api.login("v2");
    const times: string[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const t = performance.now();
      const response = await api.signPdf(plain, { pdf });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`signPDF answered ${response.status}`);
      times.push((performance.now() - t).toFixed(0));
    }
    console.log(`plain signPDF right after ready, one after another: ${times.join(", ")} ms`);
  } finally {
    await server.stop();
  }
}
main();
