import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { organizations, stampApiTokens, users } from "@/db/schema";
import { isAppError } from "@/lib/errors";
import { bootstrapPlatform } from "@/lib/organizations/bootstrap-platform";
import { createOrganization } from "@/lib/organizations/create-organization";
import { sha256Hex } from "@/lib/crypto/derive-key";
import { issueStampToken } from "./issue-stamp-token";
import { verifyStampToken } from "./verify-stamp-token";

let db: Db;
let close: () => Promise<void>;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-stamp-token-"));
  ({ db, close } = await openDatabase({ dataDir: dir }));
  await bootstrapPlatform({ domain: "verify.test", adminEmail: "admin@verify.test", adminPassword: "Verify-Admin-Pass-1" }, db);
}, 60_000);
afterAll(async () => {
  await close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

const settings = { secretKey: new Uint8Array(32).fill(3), ttlDays: 30 };
const issue = (version: "v2" | "v3") => issueStampToken({ email: "admin@verify.test", password: "Verify-Admin-Pass-1", version }, { db, settings }).then((r) => r.token);
const verdict = (token: string) =>
  verifyStampToken(token, db).then(
    (staff) => `${staff.email} ${staff.apiVersion}`,
    (error: unknown) => (isAppError(error) ? error.code : error),
  );

describe("verifyStampToken: token, user and organization in one statement, checked on every call", () => {
  it("accepts the latest token and refuses superseded, expired, unknown and oversized ones", async () => {
    const first = await issue("v2");
    expect(await verdict(first)).toBe("admin@verify.test v2");
    const v3 = await issue("v3");
    expect(await verdict(v3)).toBe("admin@verify.test v3");
    const second = await issue("v2");
    expect(await verdict(first)).toBe("UNAUTHORIZED");
    expect(await verdict(second)).toBe("admin@verify.test v2");
    expect(await verdict("not-a-token")).toBe("UNAUTHORIZED");
    expect(await verdict("x".repeat(2049))).toBe("UNAUTHORIZED");
    await db.update(stampApiTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(stampApiTokens.apiVersion, "v2"));
    expect(await verdict(second)).toBe("UNAUTHORIZED");
    expect(await verdict(v3)).toBe("admin@verify.test v3");
  });

  it("a disabled user or a suspended organization ends the token on the next call, and undoing it brings it back", async () => {
    const token = await issue("v2");
    expect(await verdict(token)).toBe("admin@verify.test v2");
    await db.update(users).set({ disabledAt: new Date() }).where(eq(users.email, "admin@verify.test"));
    expect(await verdict(token)).toBe("UNAUTHORIZED");
    await db.update(users).set({ disabledAt: null }).where(eq(users.email, "admin@verify.test"));
    expect(await verdict(token)).toBe("admin@verify.test v2");
    await db.update(organizations).set({ status: "suspended" }).where(eq(organizations.domain, "verify.test"));
    expect(await verdict(token)).toBe("UNAUTHORIZED");
    await db.update(organizations).set({ status: "active" }).where(eq(organizations.domain, "verify.test"));
    expect(await verdict(token)).toBe("admin@verify.test v2");
  });

  it("concurrent calls, read together, each get their own token's verdict", async () => {
    await createOrganization({ domain: "other.test", ownerEmail: "owner@other.test", ownerPassword: "Other-Owner-Pass-1" }, db);
    const other = await issueStampToken({ email: "owner@other.test", password: "Other-Owner-Pass-1", version: "v2" }, { db, settings }).then((r) => r.token);
    const v3 = await issue("v3");
    const expired = await issue("v2");
    await db.update(stampApiTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(stampApiTokens.tokenHash, sha256Hex(expired)));
    const tokens = [v3, "unknown-1", other, expired, v3, "unknown-2", other];
    // the first is read alone; the rest arrive while it runs and share the next statement
    expect(await Promise.all(tokens.map(verdict))).toEqual([
      "admin@verify.test v3",
      "UNAUTHORIZED",
      "owner@other.test v2",
      "UNAUTHORIZED",
      "admin@verify.test v3",
      "UNAUTHORIZED",
      "owner@other.test v2",
    ]);
  });
});
