// `npm run bench:hostile`: what hostile and very large uploads cost the running server, measured from
// outside (server RSS from /proc, /api/health latency polled meanwhile), and what repair costs.
// Prints figures; asserts nothing. Build first (`npx next build`).
import { readFileSync } from "node:fs";
import path from "node:path";
import { acceptPdf } from "../lib/pdf/accept-pdf";
import { inspectPdf } from "../lib/pdf/inspect-pdf";
import { repairPdf } from "../lib/pdf/repair-pdf";
import { objectStreamBomb, xrefStreamChainBomb } from "../lib/pdf/test-support/make-bombs";
import { damagePdf } from "../lib/pdf/test-support/damage-pdf";
import { healthDuring, quantile, serverRssMb } from "../e2e/fixtures/server-load";
import { startTestServer, type TestServer } from "../e2e/fixtures/start-test-server";
import { StampApiClient } from "../e2e/fixtures/stamp-api-client";
import { fixturePath } from "@/test/fixtures-dir";
import { ensureHundredPageInput, ensureLargeInput } from "./large-input";

const FIXTURES = fixturePath("pdfs/valid");

async function post(server: TestServer, pathname: string, field: string, bytes: Uint8Array, token?: string): Promise<number> {
  const form = new FormData();
  form.append(field, new Blob([bytes as BlobPart], { type: "application/pdf" }), "f.pdf");
  const response = await fetch(server.baseUrl + pathname, { method: "POST", body: form, headers: token ? { authorization: `Bearer ${token}` } : {} });
  await response.arrayBuffer();
  return response.status;
}

async function measure(server: TestServer, name: string, work: () => Promise<number[]>) {
  global.gc?.();
  const before = serverRssMb(server);
  let seconds = 0;
  const timed = async () => {
    const started = performance.now();
    const statuses = await work();
    seconds = (performance.now() - started) / 1000;
    return statuses;
  };
  const { result: statuses, latencies, peakRssMb } = await healthDuring(server, timed);
  console.log(
    `${name.padEnd(46)} ${seconds.toFixed(2).padStart(6)} s   statuses ${[...new Set(statuses)].join("/")}   RSS ${before.toFixed(0)} → ${peakRssMb.toFixed(0)} MB (+${(peakRssMb - before).toFixed(0)})   health p50 ${quantile(latencies, 0.5).toFixed(1)} p99 ${quantile(latencies, 0.99).toFixed(1)} max ${Math.max(...latencies).toFixed(1)} ms`,
  );
}

async function main() {
  const big = new Uint8Array(readFileSync(ensureLargeInput()));
  const server = await startTestServer();
  try {
    const api = new StampApiClient(server.baseUrl);
    const token = await api.login("v3");
    const tiny = new Uint8Array(readFileSync(path.join(FIXTURES, "libreoffice70-tiny.pdf")));
    await Promise.all([post(server, "/api/verify", "file", tiny), post(server, "/api/v3/signPDF", "pdf_file", tiny, token), post(server, "/api/verify", "file", tiny)]);
    console.log(`\nserver on ${server.databaseUrl ? "PostgreSQL" : "PGlite"}, warm, RSS ${serverRssMb(server).toFixed(0)} MB; each line runs its requests four at a time\n`);
    for (const [name, bytes] of [
      ["xref-stream chain 1 × 64 MB", xrefStreamChainBomb(1, 64)],
      ["xref-stream chain 8 × 64 MB", xrefStreamChainBomb(8, 64)],
      ["xref-stream chain 32 × 64 MB", xrefStreamChainBomb(32, 64)],
      ["xref-stream chain 640 × 64 MB (~45 MB file)", xrefStreamChainBomb(640, 64)],
      ["object stream 60 MB", objectStreamBomb(60)],
    ] as const) {
      await measure(server, `${name} → verify ×2, signPDF ×2`, () =>
        Promise.all([post(server, "/api/verify", "file", bytes), post(server, "/api/verify", "file", bytes), post(server, "/api/v3/signPDF", "pdf_file", bytes, token), post(server, "/api/v3/signPDF", "pdf_file", bytes, token)]),
      );
    }
    console.log(`\n50 MB input (${(big.length / 1e6).toFixed(1)} MB, ${inspectPdf(big).pageCount} pages)`);
    await measure(server, "signPDF ×1 (v3, sync)", () => Promise.all([post(server, "/api/v3/signPDF", "pdf_file", big, token)]));
    await measure(server, "verify ×1", () => Promise.all([post(server, "/api/verify", "file", big)]));
  } finally {
    await server.stop();
  }

  const hundred = new Uint8Array(readFileSync(ensureHundredPageInput()));
  const damaged = damagePdf(hundred, "xref-offsets-shifted");
  const time = async (work: () => unknown, runs = 5) => {
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await work();
      samples.push(performance.now() - started);
    }
    return quantile(samples, 0.5);
  };
  const strict = await time(() => inspectPdf(hundred));
  const repaired = await time(() => acceptPdf(damaged, { repair: repairPdf }));
  console.log(`\nrepair, 100 pages (${(hundred.length / 1e6).toFixed(1)} MB): strict read ${strict.toFixed(1)} ms; damaged xref, rebuilt by pdf-lib ${repaired.toFixed(1)} ms (median of 5, in process)`);
}

void main();
