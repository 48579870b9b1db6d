import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { apiCredentials } from "@/db/schema";
import { isAppError } from "@/lib/errors";
import { bootstrapPlatform } from "@/lib/organizations/bootstrap-platform";
import { hashPassword } from "./password-hash";
import { changeStaffPassword } from "./change-staff-password";
import { issueProcessToken } from "./issue-process-token";

let db: Db;
let close: () => Promise<void>;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-credentials-"));
  ({ db, close } = await openDatabase({ dataDir: dir }));
}, 60_000);
afterAll(async () => {
  await close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

const secretKey = new Uint8Array(32).fill(7);
const processLogin = (password: string, clientname: string) =>
  issueProcessToken({ username: "boot.test", clientname, password, address: "192.0.2.1" }, { db, secretKey }).then(
    () => "ok",
    (error: unknown) => (isAppError(error) ? error.code : error),
  );

describe("the first start's admin credential and credentials holding a password", () => {
  it("the bootstrap credential has its own generated secret, not the password; a credential that held the password ends with a password change", async () => {
    const boot = await bootstrapPlatform({ domain: "boot.test", adminEmail: "admin@boot.test", adminPassword: "Boot-Admin-Pass-1" }, db);
    expect(boot).not.toBeNull();
    expect(boot!.credentialSecret).not.toBe(boot!.password);
    expect(await processLogin("Boot-Admin-Pass-1", "admin@boot.test")).toBe("INVALID_CREDENTIALS");
    expect(await processLogin(boot!.credentialSecret, "admin@boot.test")).toBe("ok");

    // what an older first start left (the migration ties it to the owner): a credential whose secret is the password
    await db.insert(apiCredentials).values({ organizationId: boot!.organization.id, clientname: "legacy@boot.test", secretHash: await hashPassword("Boot-Admin-Pass-1"), role: "admin", passwordOfUserId: boot!.owner.id });
    expect(await processLogin("Boot-Admin-Pass-1", "legacy@boot.test")).toBe("ok");
    await changeStaffPassword({ userId: boot!.owner.id, currentPassword: "Boot-Admin-Pass-1", newPassword: "Boot-Admin-Pass-2", address: "192.0.2.1" }, db);
    expect(await processLogin("Boot-Admin-Pass-1", "legacy@boot.test")).toBe("INVALID_CREDENTIALS");
    // the bootstrap credential with its own secret is nobody's password: it stays
    expect(await processLogin(boot!.credentialSecret, "admin@boot.test")).toBe("ok");
    const [legacy] = await db.select().from(apiCredentials).where(eq(apiCredentials.clientname, "legacy@boot.test"));
    expect(legacy.revokedAt).not.toBeNull();
  });
});
