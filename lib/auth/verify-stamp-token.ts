import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, stampApiTokens, users } from "@/db/schema";
import { batchLookups, type BatchLookups } from "@/db/batch-lookups";
import { sha256Hex } from "@/lib/crypto/derive-key";
import { AppError } from "@/lib/errors";
import { activeStaffIdentity, staffIdentityColumns, type StaffIdentity } from "./authenticate-staff";

/** Token hashes per statement: an IN list, bounded like any input. */
const MAX_TOKENS_PER_LOOKUP = 32;

/**
 * The staff member behind a stamp-API bearer token. Only the latest token of each user and version
 * is stored, so a superseded token simply is not found. Suspension is checked on every call: the
 * lookups of concurrent requests share one statement (batch-lookups.ts), none is cached.
 */
export async function verifyStampToken(token: string, db: Db): Promise<StaffIdentity & { apiVersion: "v2" | "v3" }> {
  if (!token || token.length > 2048) throw new AppError("UNAUTHORIZED");
  const row = await tokenOwners(db).get(sha256Hex(token));
  const staff = row && activeStaffIdentity(row);
  if (!staff) throw new AppError("UNAUTHORIZED");
  return { ...staff, apiVersion: row.apiVersion };
}

const columns = { tokenHash: stampApiTokens.tokenHash, apiVersion: stampApiTokens.apiVersion, ...staffIdentityColumns };

function tokenOwnerQuery(db: Db) {
  return db.select(columns).from(stampApiTokens).innerJoin(users, eq(users.id, stampApiTokens.userId)).innerJoin(organizations, eq(users.organizationId, organizations.id));
}

type TokenOwner = Awaited<ReturnType<typeof tokenOwnerQuery>>[number];

/** A request alone reads with a statement prepared once per database; concurrent ones with one IN list. */
function prepareTokenOwnerLookups(db: Db): BatchLookups<string, TokenOwner> {
  const one = tokenOwnerQuery(db)
    .where(and(eq(stampApiTokens.tokenHash, sql.placeholder("tokenHash")), gt(stampApiTokens.expiresAt, sql`now()`)))
    .limit(1)
    .prepare("verify_stamp_token");
  const lookup = async (hashes: string[]) => {
    const rows = hashes.length === 1
      ? await one.execute({ tokenHash: hashes[0] })
      : await tokenOwnerQuery(db).where(and(inArray(stampApiTokens.tokenHash, hashes), gt(stampApiTokens.expiresAt, sql`now()`)));
    return new Map(rows.map((row) => [row.tokenHash, row]));
  };
  return batchLookups({ maxKeys: MAX_TOKENS_PER_LOOKUP, lookup });
}

const tokenOwnerLookups = new WeakMap<Db, BatchLookups<string, TokenOwner>>();

function tokenOwners(db: Db) {
  let lookups = tokenOwnerLookups.get(db);
  if (!lookups) tokenOwnerLookups.set(db, (lookups = prepareTokenOwnerLookups(db)));
  return lookups;
}
