import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveKey } from "@/lib/crypto/derive-key";
import { startTestServer, type TestServer } from "../fixtures/start-test-server";
import { runAdminCliAsync } from "../fixtures/run-admin-cli";

// The backup channel. Before: its token was HKDF(SECRET_KEY, "admin-backup"), so anyone holding an
// archive (which carries secret.key) or the key could pull fresh backups forever; restore followed a
// symlinked secret.key or blobs, and nothing checked the members.
const embedded = process.env.TEST_DATABASE !== "postgres";
const SECRET_KEY = "backup-channel-tests-secret-key-0123456789";
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "fv-backup-channel-"));
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { SECRET_KEY } });
}, 180_000);
afterAll(async () => {
  await server?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const askBackup = (authorization: string, headers: Record<string, string> = {}) =>
  fetch(`${server.baseUrl}/api/admin/backup`, { method: "POST", headers: { authorization, ...headers } });
const adminToken = () => fs.readFileSync(path.join(server.dataDir, "admin.token"), "utf8").trim();

describe.skipIf(!embedded)("the backup channel's token", () => {
  it("refuses the token derived from SECRET_KEY, answers the admin token, and rotation ends the old one", async () => {
    const derived = deriveKey(crypto.createHash("sha256").update(SECRET_KEY).digest(), "admin-backup").toString("hex");
    expect((await askBackup(`Bearer ${derived}`)).status).toBe(401);
    const token = adminToken();
    expect(fs.statSync(path.join(server.dataDir, "admin.token")).mode & 0o777).toBe(0o600);
    expect(token).not.toBe(derived);
    // a relay in front (X-Forwarded-For) is not loopback: the channel does not exist for it
    expect((await askBackup(`Bearer ${token}`, { "x-forwarded-for": "203.0.113.7" })).status).toBe(404);
    const accepted = await askBackup(`Bearer ${token}`);
    expect(accepted.status).toBe(200);
    await accepted.body?.cancel();

    const rotated = await runAdminCliAsync(["admin-token:rotate"], { dataDir: server.dataDir }, { SECRET_KEY });
    expect(rotated.code, rotated.stderr).toBe(0);
    expect((await askBackup(`Bearer ${token}`)).status).toBe(401);
    const fresh = await askBackup(`Bearer ${adminToken()}`);
    expect(fresh.status).toBe(200);
    await fresh.body?.cancel();
  }, 120_000);
});

describe.skipIf(!embedded)("restore refuses hostile archives", () => {
  /** A format-2 archive built by hand; `mutate` adds what an attacker would. */
  function craft(name: string, mutate: (dir: string) => void): string {
    const dir = path.join(scratch, `${name}-content`);
    fs.mkdirSync(path.join(dir, "blobs"), { recursive: true });
    execFileSync("tar", ["-cf", path.join(dir, "pglite.tar"), "-C", scratch, "--files-from", "/dev/null"]);
    const files: Record<string, string> = { "pglite.tar": crypto.createHash("sha256").update(fs.readFileSync(path.join(dir, "pglite.tar"))).digest("hex") };
    mutate(dir);
    fs.writeFileSync(path.join(dir, "manifest.json"), JSON.stringify({ format: "firmaviva-backup-2", createdAt: new Date().toISOString(), database: "pglite", blobs: 0, secretKey: "file", files }));
    const archive = path.join(scratch, `${name}.tar.gz`);
    execFileSync("tar", ["-czf", archive, "-C", dir, "."]);
    return archive;
  }

  it.each([
    ["a symlinked secret.key", (dir: string) => fs.symlinkSync(path.join(server.dataDir, "secret.key"), path.join(dir, "secret.key")), "link, device or special file"],
    ["a symlinked blobs directory", (dir: string) => { fs.rmSync(path.join(dir, "blobs"), { recursive: true }); fs.symlinkSync("/tmp", path.join(dir, "blobs")); }, "link, device or special file"],
    ["a member the manifest does not list", (dir: string) => fs.writeFileSync(path.join(dir, "secret.key"), "0".repeat(64)), "which its manifest does not list"],
  ])("refuses %s and leaves the target empty", async (name, mutate, message) => {
    const archive = craft(name.replace(/\W+/g, "-"), mutate);
    const target = path.join(scratch, `target-${crypto.randomUUID()}`);
    const refused = await runAdminCliAsync(["restore", archive, "--data-dir", target], { dataDir: target });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(message);
    expect(fs.readdirSync(target)).toEqual([]);
  }, 60_000);
});
