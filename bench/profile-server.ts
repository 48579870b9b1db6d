// `npx tsx bench/profile-server.ts [plain|stamped|tsa|large] [requests]`: CPU profile of the built server
// (main thread and worker threads, node --cpu-prof) while it answers one kind of stamp request,
// then the heaviest functions of each thread by self and inclusive time. Prints figures only.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../e2e/fixtures/free-port";
import { ADMIN_API_SECRET, ADMIN_EMAIL, ADMIN_PASSWORD, ORG_DOMAIN, waitForHealth, type TestServer } from "../e2e/fixtures/start-test-server";
import { StampApiClient, fixture } from "../e2e/fixtures/stamp-api-client";
import { opensslTsQuery } from "../e2e/fixtures/independent-validators";
import { summarizeCpuProfile } from "./summarize-cpu-profile";
import { ensureLargeInput } from "./large-input";

async function main() {
  const kind = process.argv[2] ?? "plain";
  const requests = Number(process.argv[3] ?? 60);
  const port = await freePort();
  const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "fv-prof-")), "data");
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-cpuprof-"));
  const root = path.resolve(__dirname, "..");
  const child = spawn(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), DATA_DIR: dataDir, PUBLIC_URL: `http://127.0.0.1:${port}`, ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_API_SECRET, ORG_DOMAIN },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d));
  child.stderr.on("data", (d: Buffer) => (output += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const server = { baseUrl: `http://127.0.0.1:${port}`, process: child, output: () => output } as unknown as TestServer;
  await waitForHealth(server);
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
  for (let i = 0; i < requests; i++) {
    const response = await call();
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  }
  child.kill("SIGINT");
  await exited;
  for (const file of fs.readdirSync(profileDir).filter((f) => f.endsWith(".cpuprofile"))) {
    console.log(`\n=== ${file}`);
    console.log(summarizeCpuProfile(path.join(profileDir, file), 25, 30).join("\n"));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
