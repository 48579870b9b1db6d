import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../fixtures/start-test-server";
import { StampApiClient, fixture } from "../fixtures/stamp-api-client";

let server: TestServer;
let previousUmask: number;

beforeAll(async () => {
  // the usual distribution default, which would leave files world-readable
  previousUmask = process.umask(0o022);
  server = await startTestServer();
  const api = new StampApiClient(server.baseUrl);
  await api.login("v2");
  expect((await api.signPdf({}, { pdf: fixture("pdfs/valid/libreoffice70-tiny.pdf") })).status).toBe(200);
});
afterAll(async () => {
  await server?.stop();
  process.umask(previousUmask);
});

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? [full, ...walk(full)] : [full];
  });
}

describe("DATA_DIR under umask 022", () => {
  it("is 0700 and nothing in it (database files, WAL, blobs, keys) is readable by group or others", () => {
    if (process.env.TEST_DATABASE === "postgres") return; // no embedded database files then
    expect(fs.statSync(server.dataDir).mode & 0o777).toBe(0o700);
    const open = walk(server.dataDir).filter((file) => (fs.lstatSync(file).mode & 0o077) !== 0);
    expect(open).toEqual([]);
    expect(walk(server.dataDir).length).toBeGreaterThan(50);
  });
});
