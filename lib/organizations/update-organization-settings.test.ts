import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { listAuditEvents } from "@/lib/audit/list-audit-events";
import { verifyAuditChain } from "@/lib/audit/verify-audit-chain";
import { createOrganization } from "./create-organization";
import { getOrganizationSettings } from "./get-organization-settings";
import { updateOrganizationSettings } from "./update-organization-settings";

// Switching identity review off lowers every later self-supplied ID photo to level `document`
// (issue 25): the switch must leave its own audit entry, apart from the other settings.
let db: Db;
let close: () => Promise<void>;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-org-settings-"));
  const database = await openDatabase({ dataDir: dir });
  db = database.db;
  close = database.close;
}, 60_000);
afterAll(async () => {
  await close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function newOrganization(domain: string) {
  const { organization } = await createOrganization({ domain, ownerEmail: `owner@${domain}`, ownerPassword: "Owner-Password-1" }, db);
  return organization.id;
}

async function auditOf(organizationId: string) {
  return (await listAuditEvents({ organizationId, limit: 50 }, db)).entries.filter((e) => e.action.startsWith("organization."));
}

describe("updateOrganizationSettings and the identity-review switch", () => {
  it("review is required by default; switching it off is stored and audited under its own action with the actor", async () => {
    const organizationId = await newOrganization("review-off.test");
    expect((await getOrganizationSettings({ organizationId }, db)).identityReviewRequired).toBe(true);
    const row = await updateOrganizationSettings({ organizationId, settings: { identityReviewRequired: false }, actor: "owner@review-off.test" }, db);
    expect(row.identityReviewRequired).toBe(false);
    expect((await getOrganizationSettings({ organizationId }, db)).identityReviewRequired).toBe(false);
    const entries = await auditOf(organizationId);
    expect(entries.map((e) => e.action)).toEqual(["organization.identity_review_switched"]);
    expect(entries[0]).toMatchObject({ actor: "owner@review-off.test", target: "review-off.test", detail: { identityReviewRequired: false } });
    expect(await verifyAuditChain({ organizationId }, db)).toMatchObject({ intact: true });
  });

  it("switching it back on is audited again; a save that leaves it unchanged is not; other fields get the general action", async () => {
    const organizationId = await newOrganization("review-toggle.test");
    const actor = "owner@review-toggle.test";
    await updateOrganizationSettings({ organizationId, settings: { identityReviewRequired: false }, actor }, db);
    await updateOrganizationSettings({ organizationId, settings: { identityReviewRequired: true }, actor }, db);
    // the form sends every field on save: an unchanged switch is no event
    await updateOrganizationSettings({ organizationId, settings: { identityReviewRequired: true, requireApproval: true }, actor }, db);
    const entries = (await auditOf(organizationId)).reverse();
    expect(entries.map((e) => [e.action, e.detail])).toEqual([
      ["organization.identity_review_switched", { identityReviewRequired: false }],
      ["organization.identity_review_switched", { identityReviewRequired: true }],
      ["organization.settings_changed", { requireApproval: { from: false, to: true } }],
    ]);
  });

  it("refuses a value that is not a boolean, naming the field, and changes nothing", async () => {
    const organizationId = await newOrganization("review-bad.test");
    await expect(updateOrganizationSettings({ organizationId, settings: { identityReviewRequired: "no" as unknown as boolean }, actor: "owner@review-bad.test" }, db)).rejects.toMatchObject({ code: "VALIDATION", field: "identityReviewRequired" });
    expect((await getOrganizationSettings({ organizationId }, db)).identityReviewRequired).toBe(true);
    expect(await auditOf(organizationId)).toEqual([]);
  });
});
