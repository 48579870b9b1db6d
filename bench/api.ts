// `npm run bench:api`: throughput and latency of the stamp API on the real built server.
// Prints figures; asserts nothing. Build first (`npx next build`); the server gets a fresh DATA_DIR.
import { startTestServer } from "../e2e/fixtures/start-test-server";
import { StampApiClient, fixture } from "../e2e/fixtures/stamp-api-client";
import { opensslTsQuery } from "../e2e/fixtures/independent-validators";

const pdf = fixture("pdfs/valid/libreoffice70-tiny.pdf");
const image = fixture("images/portrait-413x531.jpg");
const signer = { names: "José", last_names: "Pérez", person_id: "12345678", page: 1, position_x: 40, position_y: 40, qr_type: "auto" };

type Figures = { requests: number; seconds: number; p50: number; p95: number; errors: number };

async function load(concurrency: number, total: number, call: () => Promise<Response>): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const t0 = performance.now();
        const response = await call();
        await response.arrayBuffer();
        if (!response.ok) errors++;
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { requests: latencies.length, seconds, p50: at(0.5), p95: at(0.95), errors };
}

const row = (name: string, f: Figures) =>
  `${name.padEnd(34)} ${(f.requests / f.seconds).toFixed(1).padStart(8)} req/s   p50 ${f.p50.toFixed(1).padStart(7)} ms   p95 ${f.p95.toFixed(1).padStart(7)} ms   errors ${f.errors}`;

async function main() {
  const server = await startTestServer();
  try {
    const api = new StampApiClient(server.baseUrl);
    await api.login("v2");
    const tsq = opensslTsQuery(pdf);
    // warm-up: first requests compile routes and load keys
    await load(2, 10, () => api.signPdf(signer, { pdf, image }));
    await load(2, 20, () => api.postForm("/api/v2/signTimeStamp", {}, { tsq_file: tsq }));
    const lines = [
      row("signPDF (stamp + QR) c=1", await load(1, 60, () => api.signPdf(signer, { pdf, image }))),
      row("signPDF (stamp + QR) c=8", await load(8, 160, () => api.signPdf(signer, { pdf, image }))),
      row("signTimeStamp c=8", await load(8, 800, () => api.postForm("/api/v2/signTimeStamp", {}, { tsq_file: tsq }))),
      row("/api/health c=8", await load(8, 2000, () => fetch(`${server.baseUrl}/api/health`))),
    ];
    console.log(`\nstamp API on ${server.databaseUrl ? "PostgreSQL" : "PGlite"}, 1-page PDF (${pdf.length} bytes), 2 cores\n`);
    for (const line of lines) console.log(line);
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
