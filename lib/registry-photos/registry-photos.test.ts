import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { registryPhotos } from "@/db/schema";
import { listAuditEvents } from "@/lib/audit/list-audit-events";
import { createFsBlobStore } from "@/lib/blob-store/fs-blob-store";
import { createOrganization } from "@/lib/organizations/create-organization";
import { deleteRegistryPhoto } from "./delete-registry-photo";
import { findRegistryPhoto } from "./find-registry-photo";
import { listRegistryPhotos } from "./list-registry-photos";
import { readRegistryPhoto } from "./read-registry-photo";
import { saveRegistryPhoto } from "./save-registry-photo";
import { ZListRegistryPhotosQuery, ZRegistryPhotoUpload } from "./schemas";
import { fixturePath } from "@/test/fixtures-dir";

const portrait = new Uint8Array(fs.readFileSync(fixturePath("faces/person-a-obama/a1-id-portrait-413x531.jpg")));
const otherPortrait = new Uint8Array(fs.readFileSync(fixturePath("faces/person-b-biden/b1-id-portrait-413x531.jpg")));
const secretKey = new Uint8Array(32).fill(3);
let db: Db;
let close: () => Promise<void>;
let dir: string;
let services: { blobs: ReturnType<typeof createFsBlobStore>; secretKey: Uint8Array };
const org: Record<"a" | "b", string> = { a: "", b: "" };

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-registry-"));
  const database = await openDatabase({ dataDir: dir });
  db = database.db;
  close = database.close;
  services = { blobs: createFsBlobStore(path.join(dir, "blobs")), secretKey };
  for (const key of ["a", "b"] as const) {
    const { organization } = await createOrganization({ domain: `registry-${key}.test`, ownerEmail: `o@registry-${key}.test`, ownerPassword: "Owner-Password-1" }, db);
    org[key] = organization.id;
  }
}, 60_000);
afterAll(async () => {
  await close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

const upload = (docId: string, photo = portrait, nat = "PER") => ZRegistryPhotoUpload.parse({ nat, doc_id: docId, photo });
const blobCount = () => (fs.existsSync(path.join(dir, "blobs", org.a, "registry-photos")) ? fs.readdirSync(path.join(dir, "blobs", org.a, "registry-photos")).length : 0);

describe("registry photos", () => {
  it("saves, replaces (deleting the old blob), reads within the organization only, and deletes with audit entries", async () => {
    const first = await saveRegistryPhoto({ organizationId: org.a, upload: upload("74407841"), supplier: { kind: "user", id: null, name: "o@registry-a.test" } }, { db, ...services });
    expect(first.replaced).toBe(false);
    const second = await saveRegistryPhoto({ organizationId: org.a, upload: upload("74407841", otherPortrait), supplier: { kind: "credential", id: null, name: "api@registry-a.test" } }, { db, ...services });
    expect(second.replaced).toBe(true);
    expect(blobCount()).toBe(1);
    // the replacement names its own supplier: referenceBy follows the portrait in use
    const reference = await findRegistryPhoto({ organizationId: org.a, nat: "PER", docId: "74407841" }, { db, ...services });
    expect(reference?.suppliedBy).toMatchObject({ kind: "credential", name: "api@registry-a.test" });

    const { photos } = await listRegistryPhotos({ organizationId: org.a, query: ZListRegistryPhotosQuery.parse({}) }, db);
    expect(photos.map((p) => [p.nat, p.docId])).toEqual([["PER", "74407841"]]);
    const read = await readRegistryPhoto({ organizationId: org.a, photoId: photos[0].id }, { db, ...services });
    expect(read.contentType).toBe("image/jpeg");
    expect(Buffer.from(read.bytes).equals(Buffer.from(otherPortrait))).toBe(true);
    await expect(readRegistryPhoto({ organizationId: org.b, photoId: photos[0].id }, { db, ...services })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(deleteRegistryPhoto({ organizationId: org.b, photoId: photos[0].id, actor: "x" }, { db, ...services })).rejects.toMatchObject({ code: "NOT_FOUND" });

    expect(await deleteRegistryPhoto({ organizationId: org.a, photoId: photos[0].id, actor: "o@registry-a.test" }, { db, ...services })).toEqual({ nat: "PER", docId: "74407841" });
    expect(await findRegistryPhoto({ organizationId: org.a, nat: "PER", docId: "74407841" }, { db, ...services })).toBeNull();
    expect(blobCount()).toBe(0);
    const { entries } = await listAuditEvents({ organizationId: org.a }, db);
    expect(entries.filter((e) => e.action.startsWith("registry_photo.")).map((e) => [e.actor, e.action, e.target]).reverse()).toEqual([
      ["o@registry-a.test", "registry_photo.saved", "PER:74407841"],
      ["api@registry-a.test", "registry_photo.replaced", "PER:74407841"],
      ["o@registry-a.test", "registry_photo.deleted", "PER:74407841"],
    ]);
  });

  it.each([
    { name: "an ID type the organization does not enable", input: () => upload("12345678-5", portrait, "CHL"), field: "nat" },
    { name: "a photo without a face", input: () => upload("11111111", new Uint8Array(fs.readFileSync(fixturePath("faces/no-face/no-face-chandelier-480x640.jpg")))), field: undefined },
  ])("refuses $name and stores nothing", async ({ input, field }) => {
    await expect(saveRegistryPhoto({ organizationId: org.b, upload: input(), supplier: { kind: "user", id: null, name: "o" } }, { db, ...services })).rejects.toMatchObject({ code: "VALIDATION", field });
    const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(registryPhotos).where(eq(registryPhotos.organizationId, org.b));
    expect(n).toBe(0);
  });

  it("pages newest first without skipping rows written within the same millisecond", async () => {
    for (const [docId, at] of [["20000001", "2025-01-01 10:00:00.123100+00"], ["20000002", "2025-01-01 10:00:00.123900+00"], ["20000003", "2025-01-01 10:00:00.123500+00"], ["20000004", "2025-01-02 10:00:00+00"]]) {
      await db.execute(sql`insert into registry_photos (organization_id, nat, doc_id, blob_key, created_at) values (${org.b}, 'PER', ${docId}, ${`k-${docId}`}, ${at}::timestamptz)`);
    }
    const seen: string[] = [];
    let after: string | undefined;
    do {
      const page = await listRegistryPhotos({ organizationId: org.b, query: ZListRegistryPhotosQuery.parse({ limit: "1", after }) }, db);
      seen.push(...page.photos.map((p) => p.docId));
      after = page.nextCursor ?? undefined;
    } while (after);
    expect(seen[0]).toBe("20000004");
    expect([...seen].sort()).toEqual(["20000001", "20000002", "20000003", "20000004"]);
  });
});
