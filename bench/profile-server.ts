// `npx tsx bench/profile-server.ts [plain|stamped|tsa|large] [requests] [concurrency]`: CPU profile of
// the built server (main thread and worker threads, node --cpu-prof) while it answers one kind of
// stamp request, then the heaviest functions of each thread by self and inclusive time. Concurrency
// (default 1) is what shows the batched statements of c=8. Prints figures only.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startTestServer } from "../e2e/fixtures/start-test-server";
import { StampApiClient, fixture } from "../e2e/fixtures/stamp-api-client";
import { opensslTsQuery } from "../e2e/fixtures/independent-validators";
import { summarizeCpuProfile } from "./summarize-cpu-profile";
import { ensureLargeInput } from "./large-input";
import { sendClosedLoop } from "./closed-loop-load";

async function main() {
  const kind = process.argv[2] ?? "plain";
  const requests = Number(process.argv[3] ?? 60);
  const concurrency = Number(process.argv[4] ?? 1);
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-cpuprof-"));
  // the production sampling rate of the full re-verification (the test servers verify every output)
  const server = await startTestServer({ nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`], env: { LEVEL_AUDIT_RATE: "0.02" } });
  const api = new StampApiClient(server.baseUrl);
  await api.login("v2");
  const pdf = fixture("pdfs/valid/libreoffice70-tiny.pdf");
  const image = fixture("images/portrait-413x531.jpg");
  const plain = { names: "José", last_names: "Pérez", person_id: "12345678", binary_resp: 1 };
  const tsq = opensslTsQuery(pdf);
  const large = kind === "large" ? new Uint8Array(fs.readFileSync(ensureLargeInput())) : undefined;
  const call =
    large
      ? () => api.signPdf(plain, { pdf: large })
      : kind === "tsa"
      ? () => api.postForm("/api/v2/signTimeStamp", {}, { tsq_file: tsq })
      : () => api.signPdf(kind === "stamped" ? { ...plain, page: 1, position_x: 40, position_y: 40, qr_type: "auto" } : plain, kind === "stamped" ? { pdf, image } : { pdf });
  await sendClosedLoop({ total: requests, concurrency }, call);
  // a clean exit writes the profiles
  await server.stop();
  console.log(`profiles in ${profileDir}`);
  for (const file of fs.readdirSync(profileDir).filter((f) => f.endsWith(".cpuprofile"))) {
    console.log(`\n=== ${file}`);
    console.log(summarizeCpuProfile(path.join(profileDir, file), 25, 30).join("\n"));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
