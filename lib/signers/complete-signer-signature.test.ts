import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { processes, processSigners } from "@/db/schema";
import { createClusterDatabase, findPostgresBin, startPostgresCluster, type PostgresCluster } from "@/e2e/fixtures/postgres";
import { waitFor } from "@/e2e/fixtures/process-api-client";
import { createFsBlobStore } from "@/lib/blob-store/fs-blob-store";
import { createOrganization } from "@/lib/organizations/create-organization";
import { createProcess } from "@/lib/processes/create-process";
import { ZCreateProcessFields } from "@/lib/processes/schemas";
import { testWorkerPools } from "@/lib/server/testing/test-pools";
import { fixturePath } from "@/test/fixtures-dir";
import { completeSignerSignature } from "./complete-signer-signature";
import { confirmSignerNames } from "./confirm-signer-names";
import { openSigningLink } from "./open-signing-link";
import { prepareSignerSignature } from "./prepare-signer-signature";

const pdfBytes = new Uint8Array(fs.readFileSync(fixturePath("pdfs/valid/libreoffice70-tiny.pdf")));
const links = { secretKey: new Uint8Array(32).fill(7), publicUrl: "https://firmas.test" };

// PGlite runs one transaction at a time, so only a server can make the last two signatures meet
describe.skipIf(!findPostgresBin("initdb"))("completeSignerSignature on PostgreSQL", () => {
  let cluster: PostgresCluster;
  let databaseUrl: string;
  let database: Awaited<ReturnType<typeof openDatabase>>;
  let db: Db;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-complete-signature-"));
    cluster = await startPostgresCluster();
    databaseUrl = await createClusterDatabase(cluster.adminUrl, "complete_signature");
    database = await openDatabase({ databaseUrl, dataDir: dir });
    db = database.db;
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    cluster?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a signature that waited for the process lock sees the signature committed meanwhile, and concludes the process", async () => {
    const { organization } = await createOrganization({ domain: "race.test", ownerEmail: "o@race.test", ownerPassword: "Owner-Password-1" }, db);
    const caller = { credentialId: null as unknown as string, clientname: "api@race.test", role: "admin" as const, organizationId: organization.id, organizationDomain: organization.domain };
    const created = await createProcess(
      {
        caller,
        fields: ZCreateProcessFields.parse({ signers: [{ doc_id: "71717171" }, { doc_id: "72727272" }], readChallenges: [] }),
        files: [{ field: "pdfFiles", filename: "a.pdf", contentType: "application/pdf", bytes: pdfBytes }],
      },
      { db, blobs: createFsBlobStore(path.join(dir, "blobs")), links, pools: testWorkerPools() },
    );
    const token = String(created.msg).split("/").pop()!;
    const [first, second] = await db.select().from(processSigners).where(eq(processSigners.processId, created.id)).orderBy(processSigners.position);
    // the second signer's signature, planned while the first signer is still pending
    expect((await openSigningLink({ token, signerId: second.id }, db)).signer?.id).toBe(second.id);
    await confirmSignerNames({ token, signerId: second.id, names: { given_name: "Ana", family_name: "Pérez" } }, db);
    const plan = await prepareSignerSignature({ token, signerId: second.id }, db);
    const signedDocuments = plan.documents.map((d) => ({ documentId: d.documentId, blobKey: d.outputBlobKey, sha256: "x".repeat(64), baseBlobKey: d.blobKey, signaturesLevel: null }));

    // Another instance holds the process lock while it records the first signer's signature (on a
    // file of its own, so this one's file does not move). The completion below waits for that lock.
    const other = postgres(databaseUrl, { max: 2, onnotice: () => {} });
    try {
      let completion: ReturnType<typeof completeSignerSignature> | undefined;
      await other.begin(async (tx) => {
        await tx`select id from processes where id = ${created.id} for no key update`;
        await tx`update process_signers set status = 'signed', signed_at = now() where id = ${first.id}`;
        completion = completeSignerSignature({ token, signerId: second.id, signedDocuments }, db);
        completion.catch(() => {}); // awaited below; a rejection meanwhile is not unhandled
        await waitFor(async () => (await other`select 1 from pg_stat_activity where datname = 'complete_signature' and wait_event_type = 'Lock'`).length > 0);
      });
      // the signers it read are those once the lock was held: none is left, so this signature ends the process
      await expect(completion).resolves.toEqual({ processStatus: "signed", completed: true });
    } finally {
      await other.end();
    }
    const [process] = await db.select().from(processes).where(eq(processes.id, created.id));
    expect(process.status).toBe("signed");
  }, 60_000);
});
