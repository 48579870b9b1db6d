import { defineConfig } from "@playwright/test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// One server for the browser suite, with its own fresh DATA_DIR (PGlite is one process per directory).
// The port is fixed per run through the environment so that every Playwright worker sees the same value.
process.env.E2E_PORT ??= String(32000 + Math.floor(Math.random() * 20000));
process.env.E2E_DATA_DIR ??= path.join(fs.mkdtempSync(path.join(os.tmpdir(), "fv-e2e-")), "data");
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "e2e/ui",
  outputDir: "e2e/artifacts/test-results",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL,
    screenshot: "only-on-failure",
    // a click or a page that never comes fails its test in a minute, not after the test's own
    // limit (up to 7 minutes for the camera specs): one broken state must not cost the run its budget
    actionTimeout: 30_000,
    navigationTimeout: 60_000,
    trace: "off",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    { name: "desktop", use: { viewport: { width: 1280, height: 800 } } },
  ],
  webServer: {
    command: `node scripts/serve.mjs -p ${port} -H 127.0.0.1`,
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATA_DIR: process.env.E2E_DATA_DIR,
      PUBLIC_URL: baseURL,
      ADMIN_EMAIL: "admin@demo.local",
      ADMIN_PASSWORD: "Admin-Test-Password-1",
      ADMIN_API_SECRET: "Admin-Api-Secret-Test-1",
      ORG_DOMAIN: "demo.local",
      DATABASE_URL: "",
    },
  },
});
