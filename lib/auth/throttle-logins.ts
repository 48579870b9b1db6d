import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { loginThrottles } from "@/db/schema";
import { AppError } from "@/lib/errors";

/** Attempts without delay per account, and per client address (which may hide many people). */
export const FREE_ATTEMPTS = { account: 5, address: 30 } as const;
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
 * Returns the seconds to wait when refused.
 */
async function claim(key: string, free: number, db: Db): Promise<number | undefined> {
  const stale = sql`${loginThrottles.windowStartedAt} < now() - make_interval(secs => ${WINDOW_SECONDS})`;
  const next = sql`(case when ${stale} then 1 else ${loginThrottles.attempts} + 1 end)`;
  const claimed = await db
    .insert(loginThrottles)
    .values({ key, attempts: 1 })
    .onConflictDoUpdate({
      target: loginThrottles.key,
      set: {
        attempts: next,
        windowStartedAt: sql`case when ${stale} then now() else ${loginThrottles.windowStartedAt} end`,
        blockedUntil: sql`case when ${next} >= ${free} then now() + make_interval(secs => least(${MAX_BLOCK_SECONDS}, power(2, ${next} - ${free})::int)) else null end`,
      },
      setWhere: sql`${loginThrottles.blockedUntil} is null or ${loginThrottles.blockedUntil} <= now()`,
    })
    .returning({ key: loginThrottles.key });
  if (claimed.length > 0) return undefined;
  const [row] = await db.select({ blockedUntil: loginThrottles.blockedUntil }).from(loginThrottles).where(eq(loginThrottles.key, key));
  return Math.max(1, Math.ceil(((row?.blockedUntil?.getTime() ?? Date.now()) - Date.now()) / 1000));
}

/**
 * Runs a password check under the throttle of its account and of the client's address (ASVS 2.2.1:
 * far fewer than 100 failures an hour per account). A success clears the account's count.
 */
export async function throttleLogin<T>(input: { account: string; address: string }, db: Db, check: () => Promise<T | null>): Promise<T | null> {
  const accountKey = `account:${input.account.trim().toLowerCase()}`;
  const addressKey = `address:${input.address}`;
  const waits = [await claim(accountKey, FREE_ATTEMPTS.account, db), await claim(addressKey, FREE_ATTEMPTS.address, db)];
  const wait = Math.max(0, ...waits.filter((w): w is number => w !== undefined));
  if (wait > 0) throw new RateLimitedError(wait);
  const result = await check();
  if (result !== null) {
    // a success clears its account, and gives its address back the attempt (an office behind one
    // address logs in all day; only failures should count against it)
    await db.delete(loginThrottles).where(eq(loginThrottles.key, accountKey));
    await db
      .update(loginThrottles)
      .set({ attempts: sql`greatest(${loginThrottles.attempts} - 1, 0)`, blockedUntil: sql`case when ${loginThrottles.attempts} - 1 < ${FREE_ATTEMPTS.address} then null else ${loginThrottles.blockedUntil} end` })
      .where(eq(loginThrottles.key, addressKey));
  }
  return result;
}

/** Deletes the rows of keys with no attempt in the last window and no block still running. */
export async function forgetQuietLoginThrottles(db: Db): Promise<void> {
  await db
    .delete(loginThrottles)
    .where(sql`${loginThrottles.windowStartedAt} < now() - make_interval(secs => ${WINDOW_SECONDS}) and (${loginThrottles.blockedUntil} is null or ${loginThrottles.blockedUntil} < now())`);
}
