import { eq, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { loginThrottles } from "@/db/schema";
import { metrics } from "@/lib/metrics/metrics";
import { AppError } from "@/lib/errors";

/**
 * Attempts without delay for one account from one address, and for one address over all accounts
 * (which may hide many people); failures one account may take from everywhere before every address
 * waits (NIST SP 800-63B: at most 100 consecutive failures).
 */
export const FREE_ATTEMPTS = { accountFromAddress: 5, address: 30, account: 100 } as const;
const MAX_BLOCK_SECONDS = 15 * 60;
const WINDOW_SECONDS = 60 * 60;

export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super("RATE_LIMITED", `Demasiados intentos de ingreso; intente de nuevo en ${retryAfterSeconds} s.`);
  }
}

/**
 * Claims one attempt for `key` with a single upsert: refused while the key is blocked; the attempt
 * that reaches the free count (and each one after it) sets a block of 2^(n - free) seconds, at most
 * 15 minutes, so parallel bursts get the free attempts and no more. A quiet hour starts over.
 * With `pending`, the claim is held apart from the failures until settleClaim says how it ended.
 * Returns the seconds to wait when refused.
 */
async function claim(key: string, free: number, db: Db, mode: "attempt" | "pending" = "attempt"): Promise<number | undefined> {
  const stale = sql`${loginThrottles.windowStartedAt} < now() - make_interval(secs => ${WINDOW_SECONDS})`;
  const counter = mode === "attempt" ? loginThrottles.attempts : loginThrottles.pending;
  const claimed = sql`(case when ${stale} then 1 else ${counter} + 1 end)`;
  const next = mode === "attempt" ? claimed : sql`(case when ${stale} then 1 else ${loginThrottles.attempts} + ${loginThrottles.pending} + 1 end)`;
  const rows = await db
    .insert(loginThrottles)
    .values({ key, attempts: mode === "attempt" ? 1 : 0, pending: mode === "pending" ? 1 : 0 })
    .onConflictDoUpdate({
      target: loginThrottles.key,
      set: {
        [mode === "attempt" ? "attempts" : "pending"]: claimed,
        ...(mode === "pending" ? { attempts: sql`case when ${stale} then 0 else ${loginThrottles.attempts} end` } : {}),
        windowStartedAt: sql`case when ${stale} then now() else ${loginThrottles.windowStartedAt} end`,
        blockedUntil: sql`case when ${next} >= ${free} then now() + make_interval(secs => least(${MAX_BLOCK_SECONDS}, power(2, ${next} - ${free})::int)) else null end`,
      },
      setWhere: sql`${loginThrottles.blockedUntil} is null or ${loginThrottles.blockedUntil} <= now()`,
    })
    .returning({ key: loginThrottles.key });
  if (rows.length > 0) return undefined;
  const [row] = await db.select({ blockedUntil: loginThrottles.blockedUntil }).from(loginThrottles).where(eq(loginThrottles.key, key));
  return Math.max(1, Math.ceil(((row?.blockedUntil?.getTime() ?? Date.now()) - Date.now()) / 1000));
}

/** Ends a pending claim: a failure joins the key's failures, which nothing ever takes back; a success leaves them as they are. */
async function settleClaim(key: string, failed: boolean, db: Db): Promise<void> {
  await db
    .update(loginThrottles)
    .set({ pending: sql`greatest(${loginThrottles.pending} - 1, 0)`, attempts: sql`${loginThrottles.attempts} + ${failed ? 1 : 0}` })
    .where(eq(loginThrottles.key, key));
}

/** Seconds until `key`'s block ends, or undefined when it is not blocked. */
async function blockOf(key: string, db: Db): Promise<number | undefined> {
  const [row] = await db.select({ blockedUntil: loginThrottles.blockedUntil }).from(loginThrottles).where(eq(loginThrottles.key, key));
  const left = (row?.blockedUntil?.getTime() ?? 0) - Date.now();
  return left > 0 ? Math.ceil(left / 1000) : undefined;
}

/** Counts one failure against `key`, blocking as a claim does once it passes `free`, even while blocked. */
async function recordFailure(key: string, free: number, db: Db): Promise<void> {
  const stale = sql`${loginThrottles.windowStartedAt} < now() - make_interval(secs => ${WINDOW_SECONDS})`;
  const next = sql`(case when ${stale} then 1 else ${loginThrottles.attempts} + 1 end)`;
  await db
    .insert(loginThrottles)
    .values({ key, attempts: 1 })
    .onConflictDoUpdate({
      target: loginThrottles.key,
      set: {
        attempts: next,
        windowStartedAt: sql`case when ${stale} then now() else ${loginThrottles.windowStartedAt} end`,
        blockedUntil: sql`case when ${next} >= ${free} then now() + make_interval(secs => least(${MAX_BLOCK_SECONDS}, power(2, ${next} - ${free})::int)) else ${loginThrottles.blockedUntil} end`,
      },
    });
}

const accountKeyOf = (account: string) => `account:${account.trim().toLowerCase()}`;

/**
 * Runs a password check under three throttles (ASVS 2.2.1, NIST SP 800-63B 5.2.2):
 * - the account from this address: claimed before the check, so a parallel burst gets the free
 *   attempts and no more; a success clears it. A stranger failing elsewhere never blocks it, so the
 *   right password from an address that has not been failing gets in.
 * - the address over all accounts (spraying): claimed before the check as pending; a failure then
 *   counts for good and a success counts for nothing, so an office behind one address logs in all
 *   day while an attacker's own logins take back none of their failures.
 * - the account's failures from every address: past 100 in an hour every address waits (a guess
 *   spread over many addresses stays bounded); `npm run admin -- login:unblock` ends it.
 */
export async function throttleLogin<T>(input: { account: string; address: string; check: () => Promise<T | null> }, db: Db): Promise<T | null> {
  const accountKey = accountKeyOf(input.account);
  const pairKey = `${accountKey}|address:${input.address}`;
  const addressKey = `address:${input.address}`;
  const wait = (await blockOf(accountKey, db)) ?? (await claim(pairKey, FREE_ATTEMPTS.accountFromAddress, db)) ?? (await claim(addressKey, FREE_ATTEMPTS.address, db, "pending"));
  if (wait !== undefined) {
    metrics().loginAttempts.inc({ outcome: "throttled" });
    throw new RateLimitedError(wait);
  }
  let result: T | null = null;
  try {
    result = await input.check();
  } finally {
    await settleClaim(addressKey, result === null, db);
    metrics().loginAttempts.inc({ outcome: result === null ? "failed" : "succeeded" });
  }
  if (result === null) await recordFailure(accountKey, FREE_ATTEMPTS.account, db);
  else await db.delete(loginThrottles).where(or(eq(loginThrottles.key, accountKey), eq(loginThrottles.key, pairKey)));
  return result;
}

/**
 * Lifts every block of one account (`staff:<e-mail>` or `credential:<domain>/<clientname>`), from
 * every address; the addresses' own counts stay. Returns how many keys were cleared.
 */
export async function unblockLogins(account: string, db: Db): Promise<number> {
  const accountKey = accountKeyOf(account);
  const prefix = `${accountKey}|`;
  const cleared = await db
    .delete(loginThrottles)
    .where(or(eq(loginThrottles.key, accountKey), sql`left(${loginThrottles.key}, ${prefix.length}) = ${prefix}`))
    .returning({ key: loginThrottles.key });
  return cleared.length;
}

/** Deletes the rows of keys with no attempt in the last window and no block still running. */
export async function forgetQuietLoginThrottles(db: Db): Promise<void> {
  await db
    .delete(loginThrottles)
    .where(sql`${loginThrottles.windowStartedAt} < now() - make_interval(secs => ${WINDOW_SECONDS}) and (${loginThrottles.blockedUntil} is null or ${loginThrottles.blockedUntil} < now())`);
}
