import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { loginThrottles } from "@/db/schema";
import { isAppError } from "@/lib/errors";
import { FREE_ATTEMPTS, forgetQuietLoginThrottles, throttleLogin, unblockLogins } from "./throttle-logins";

let db: Db;
let close: () => Promise<void>;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-throttle-"));
  ({ db, close } = await openDatabase({ dataDir: dir }));
}, 60_000);
afterAll(async () => {
  await close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

const fail = () => Promise.resolve(null);

describe("throttleLogin", () => {
  it("evaluates the free attempts, then refuses with the seconds to wait, without calling the check", async () => {
    let checks = 0;
    const check = () => {
      checks++;
      return fail();
    };
    for (let i = 0; i < FREE_ATTEMPTS.accountFromAddress; i++) expect(await throttleLogin({ account: "staff:a@b.c", address: "10.0.0.1", check }, db)).toBeNull();
    const refused = await throttleLogin({ account: "staff:a@b.c", address: "10.0.0.1", check }, db).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.code).toBe("RATE_LIMITED");
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(checks).toBe(FREE_ATTEMPTS.accountFromAddress);
  });

  it("an account blocked from one address still lets the right password in from another; the unblock lifts the first", async () => {
    const account = "staff:target@b.c";
    const attacker = { account, address: "10.0.1.1" };
    for (let i = 0; i < FREE_ATTEMPTS.accountFromAddress; i++) await throttleLogin({ ...attacker, check: fail }, db);
    const refused = await throttleLogin({ ...attacker, check: () => Promise.resolve("me") }, db).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.code).toBe("RATE_LIMITED");
    expect(await throttleLogin({ account, address: "10.0.1.2", check: () => Promise.resolve("me") }, db)).toBe("me");
    for (let i = 0; i < FREE_ATTEMPTS.accountFromAddress; i++) await throttleLogin({ ...attacker, check: fail }, db).catch(() => undefined);
    expect(await unblockLogins(account, db)).toBeGreaterThanOrEqual(1);
    expect(await throttleLogin({ ...attacker, check: () => Promise.resolve("me") }, db)).toBe("me");
  });

  it("past the account's failures from every address, every address waits", async () => {
    const account = "staff:sprayed@b.c";
    for (let i = 0; i < FREE_ATTEMPTS.account; i++) await throttleLogin({ account, address: `10.2.${Math.floor(i / 4)}.${i % 4}`, check: fail }, db);
    const refused = await throttleLogin({ account, address: "10.3.0.1", check: () => Promise.resolve("me") }, db).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.code).toBe("RATE_LIMITED");
  });

  it("an office's successes never block its address", async () => {
    const address = "10.0.3.1";
    for (let i = 0; i < FREE_ATTEMPTS.address * 2; i++) expect(await throttleLogin({ account: `staff:clerk-${i}@b.c`, address, check: () => Promise.resolve("me") }, db)).toBe("me");
  });

  it("a success takes back none of the address's failures (an attacker's own logins buy no attempts against others)", async () => {
    const address = "10.0.2.1";
    for (let i = 0; i < FREE_ATTEMPTS.address; i++) {
      await throttleLogin({ account: `staff:victim-${i}@b.c`, address, check: fail }, db).catch(() => undefined);
      await throttleLogin({ account: "staff:attacker@b.c", address, check: () => Promise.resolve("me") }, db).catch(() => undefined);
    }
    const refused = await throttleLogin({ account: "staff:victim-last@b.c", address, check: fail }, db).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.code).toBe("RATE_LIMITED");
  });

  it("a success clears the account's count", async () => {
    for (let i = 0; i < 3; i++) await throttleLogin({ account: "staff:ok@b.c", address: "10.0.0.2", check: fail }, db);
    expect(await throttleLogin({ account: "staff:ok@b.c", address: "10.0.0.2", check: () => Promise.resolve("me") }, db)).toBe("me");
    const rows = await db.select().from(loginThrottles).where(sql`${loginThrottles.key} = 'account:staff:ok@b.c'`);
    expect(rows).toEqual([]);
  });

  it("quiet keys are forgotten by the sweep; running blocks are kept", async () => {
    await db.insert(loginThrottles).values([
      { key: "account:old", attempts: 3, windowStartedAt: new Date(Date.now() - 2 * 3600 * 1000) },
      { key: "account:blocked", attempts: 9, windowStartedAt: new Date(Date.now() - 2 * 3600 * 1000), blockedUntil: new Date(Date.now() + 600_000) },
    ]);
    await forgetQuietLoginThrottles(db);
    const keys = (await db.select({ key: loginThrottles.key }).from(loginThrottles)).map((row) => row.key);
    expect(keys).not.toContain("account:old");
    expect(keys).toContain("account:blocked");
  });
});
