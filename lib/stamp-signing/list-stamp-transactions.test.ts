import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { stampTransactions } from "@/db/schema";
import { createOrganization } from "@/lib/organizations/create-organization";
import { listStampTransactions } from "./list-stamp-transactions";

let db: Db;
let close: () => Promise<void>;
let dir: string;
let ours: string;
let theirs: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-list-stamps-"));
  fs.mkdirSync(path.join(dir, "data"));
  const database = await openDatabase({ dataDir: path.join(dir, "data") });
  db = database.db;
  close = database.close;
  ours = (await createOrganization({ domain: "ours.test", ownerEmail: "o@ours.test", ownerPassword: "Owner-Password-1" }, db)).organization.id;
  theirs = (await createOrganization({ domain: "theirs.test", ownerEmail: "o@theirs.test", ownerPassword: "Owner-Password-1" }, db)).organization.id;
  const at = (minutes: number) => new Date(Date.UTC(2026, 10, 25, 12, minutes));
  const row = (organizationId: string, txToken: string, values: Partial<typeof stampTransactions.$inferInsert>) => ({ organizationId, txToken, docId: `doc-${txToken}`, operation: "signPDF" as const, status: "done" as const, ...values });
  await db.insert(stampTransactions).values([
    row(ours, "OursOldest0000000001", { createdAt: at(1), signType: "agente", padesLevel: "B-LT", summary: { signer: { names: "Rosa", lastNames: "Huamán" } } }),
    row(ours, "OursOffline000000002", { createdAt: at(2), signType: "agente", padesLevel: "B-T", summary: { signer: {} } }),
    row(ours, "OursPending000000003", { createdAt: at(3), signType: "otp", status: "pending", summary: { signer: { names: "Luis", lastNames: "Quispe" } } }),
    row(ours, "OursTimeStamp0000004", { createdAt: at(4), operation: "signTimeStamp" }),
    row(theirs, "TheirsNewest00000005", { createdAt: at(5), signType: "agente", padesLevel: "B-LT" }),
  ]);
});

afterAll(async () => {
  await close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("listStampTransactions", () => {
  it("lists the organization's signPDF transactions newest first, with signer name, type, status and measured level", async () => {
    expect(await listStampTransactions({ organizationId: ours }, db)).toEqual([
      { txToken: "OursPending000000003", createdAt: expect.any(Date), signType: "otp", status: "pending", padesLevel: null, signerName: "Luis Quispe" },
      { txToken: "OursOffline000000002", createdAt: expect.any(Date), signType: "agente", status: "done", padesLevel: "B-T", signerName: null },
      { txToken: "OursOldest0000000001", createdAt: expect.any(Date), signType: "agente", status: "done", padesLevel: "B-LT", signerName: "Rosa Huamán" },
    ]);
  });

  it("never shows another organization's transactions, and honours the limit", async () => {
    expect((await listStampTransactions({ organizationId: theirs }, db)).map((r) => r.txToken)).toEqual(["TheirsNewest00000005"]);
    expect((await listStampTransactions({ organizationId: ours, limit: 1 }, db)).map((r) => r.txToken)).toEqual(["OursPending000000003"]);
  });
});
