import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { organizations } from "@/db/schema";
import { eq } from "drizzle-orm";
import { verifyAuditChain } from "@/lib/audit/verify-audit-chain";
import { ADMIN_EMAIL, ADMIN_API_SECRET, ORG_DOMAIN, startTestServer, type TestServer } from "../fixtures/start-test-server";
import { login, processApi, signer, waitFor } from "../fixtures/process-api-client";
import { signerHttp } from "../fixtures/signer-http-flow";
import { runAdminCliAsync } from "../fixtures/run-admin-cli";
import { validatePdf } from "../fixtures/independent-validators";

// The embedded database only: on PostgreSQL the README says pg_dump plus the blob store.
// The CLI runs without blocking this process: a blocked event loop cannot see the server close an idle
// kept-alive socket, and the next fetch would pick that dead socket ("other side closed").
const embedded = process.env.TEST_DATABASE !== "postgres";
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "fv-backup-"));
let original: TestServer;
let restored: TestServer | undefined;

beforeAll(async () => {
  // no SECRET_KEY in the environment: the key is generated into DATA_DIR/secret.key and must travel in the backup
  original = await startTestServer({ env: { SECRET_KEY: "" } });
}, 180_000);
afterAll(async () => {
  await original?.stop();
  await restored?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe.skipIf(!embedded)("backup of the running embedded server, restore into a new directory", () => {
  it("refuses a backup request without the admin channel's token, and a restore over existing data or from a damaged file", async () => {
    // (the token derived from SECRET_KEY that this channel used to take: e2e/api/backup-channel.test.ts)
    for (const authorization of [undefined, "Bearer 00", `Bearer ${"a".repeat(64)}`]) {
      const answer = await fetch(`${original.baseUrl}/api/admin/backup`, { method: "POST", headers: authorization ? { authorization } : {} });
      expect(answer.status).toBe(401);
    }
    const occupied = path.join(scratch, "occupied");
    fs.mkdirSync(occupied);
    fs.writeFileSync(path.join(occupied, "keep.txt"), "x");
    const anyFile = path.join(scratch, "not-a-backup.tar.gz");
    fs.writeFileSync(anyFile, "no es un respaldo");
    const overExisting = await runAdminCliAsync(["restore", anyFile, "--data-dir", occupied], { dataDir: occupied });
    expect(overExisting.code).toBe(1);
    expect(overExisting.stderr).toContain("is not empty");
    const empty = path.join(scratch, "empty");
    const damaged = await runAdminCliAsync(["restore", anyFile, "--data-dir", empty], { dataDir: empty });
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toContain("the archive cannot be read");
    expect(fs.readdirSync(empty)).toEqual([]);
    const missingDir = await runAdminCliAsync(["restore", anyFile], { dataDir: empty });
    expect(missingDir.stderr).toContain("--data-dir");
  });

  it("the restored server serves the signed document, an intact audit chain and a working signer link", async () => {
    const api = processApi(original.baseUrl, await login(original.baseUrl, ORG_DOMAIN, ADMIN_EMAIL, ADMIN_API_SECRET));
    const [first, second] = [signer({ signChallenges: [], contactInfo: undefined }), signer({ signChallenges: [], contactInfo: undefined })];
    const created = await api.create({ signers: [first, second], description: "Respaldo" });
    expect(created.status).toBe(201);
    const { id, msg: link } = await created.json();
    const [process] = (await (await api.list({ process_id: id })).json()).signatureProcesses;
    const flow = signerHttp(original.baseUrl, link);
    expect((await flow.identify(first.doc_id)).status).toBe(200);
    expect((await flow.confirmNames("Ana", "Respaldo")).status).toBe(200);
    await flow.showEveryPage(process.documents);
    expect((await flow.sign()).status).toBe(200);

    // the server keeps answering while it writes the archive
    const archive = path.join(scratch, "firmaviva.tar.gz");
    const backingUp = runAdminCliAsync(["backup", archive, "--url", original.baseUrl], { dataDir: original.dataDir });
    let answeredDuring = 0;
    let stillRunning = true;
    void backingUp.finally(() => (stillRunning = false));
    while (stillRunning) {
      expect((await api.list({ process_id: id })).status).toBe(200);
      if (stillRunning) answeredDuring++;
    }
    const made = await backingUp;
    expect(made.code, made.stderr).toBe(0);
    expect(answeredDuring).toBeGreaterThan(0);
    expect(made.stdout).toContain("backup written to");
    expect(fs.readdirSync(original.dataDir).filter((f) => f.startsWith("backup-")), "snapshot left behind").toEqual([]);

    // the same, encrypted under a passphrase: unreadable without it, refused with a wrong one
    const sealed = path.join(scratch, "firmaviva.tar.gz.enc");
    const passphrase = { BACKUP_PASSPHRASE: "una frase de paso larga" };
    const encrypted = await runAdminCliAsync(["backup", sealed, "--url", original.baseUrl, "--encrypt"], { dataDir: original.dataDir }, passphrase);
    expect(encrypted.code, encrypted.stderr).toBe(0);
    expect(fs.readFileSync(sealed).subarray(0, 9).toString()).toBe("FVBACKUP-");
    const wrongDir = path.join(scratch, "wrong-passphrase");
    const wrong = await runAdminCliAsync(["restore", sealed, "--data-dir", wrongDir], { dataDir: wrongDir }, { BACKUP_PASSPHRASE: "otra frase de paso cualquiera" });
    expect(wrong.stderr).toContain("wrong passphrase");
    expect(fs.readdirSync(wrongDir)).toEqual([]);
    const openedDir = path.join(scratch, "decrypted");
    const opened = await runAdminCliAsync(["restore", sealed, "--data-dir", openedDir], { dataDir: openedDir }, passphrase);
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stdout).toMatch(/1 organization\(s\)/);

    const dataDir = path.join(scratch, "restored");
    const unpacked = await runAdminCliAsync(["restore", archive, "--data-dir", dataDir], { dataDir });
    expect(unpacked.code, unpacked.stderr).toBe(0);
    expect(unpacked.stdout).toMatch(/1 organization\(s\), [1-9]\d* blob file\(s\); the secret key came along/);
    expect(fs.readFileSync(path.join(dataDir, "secret.key"))).toEqual(fs.readFileSync(path.join(original.dataDir, "secret.key")));
    await original.stop();

    restored = await startTestServer({ dataDir, env: { SECRET_KEY: "" } });
    const restoredApi = processApi(restored.baseUrl, await login(restored.baseUrl, ORG_DOMAIN, ADMIN_EMAIL, ADMIN_API_SECRET));
    // the second signer uses the link sent before the backup: its token is verified with the restored key
    const later = signerHttp(restored.baseUrl, link);
    expect((await later.identify(second.doc_id)).status).toBe(200);
    expect((await later.confirmNames("Rosa", "Restaurada")).status).toBe(200);
    await later.showEveryPage(process.documents);
    const signed = await later.sign();
    expect(signed.status, await signed.clone().text()).toBe(200);
    const done = await waitFor(async () => {
      const [row] = (await (await restoredApi.list({ process_id: id })).json()).signatureProcesses;
      return row.status === "signed" ? row : null;
    }, 90_000);
    const document = await fetch(done.documents[0].url.replace(original.baseUrl, restored.baseUrl));
    expect(document.status).toBe(200);
    const caPem = await (await fetch(`${restored.baseUrl}/api/pki/ca.pem`)).text();
    const check = validatePdf(new Uint8Array(await document.arrayBuffer()), caPem);
    expect(check.pass, check.output).toBe(true);
    // the signature made before the backup and the one after, both valid under the restored CA
    expect(check.signatures).toBeGreaterThanOrEqual(2);

    await restored.stop();
    const database = await openDatabase({ dataDir });
    try {
      const [org] = await database.db.select().from(organizations).where(eq(organizations.domain, ORG_DOMAIN));
      const chain = await verifyAuditChain({ organizationId: org.id }, database.db);
      expect(chain.intact).toBe(true);
      expect(chain.entries).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
  }, 400_000);
});

describe.skipIf(embedded)("backup with DATABASE_URL", () => {
  it("points to pg_dump instead", async () => {
    const refused = await runAdminCliAsync(["backup", path.join(scratch, "x.tar.gz"), "--url", original.baseUrl], { dataDir: original.dataDir, databaseUrl: original.databaseUrl });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("pg_dump");
  });
});
