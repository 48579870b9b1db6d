import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, stampApiTokens, users } from "@/db/schema";
import { sha256Hex } from "@/lib/crypto/derive-key";
import { AppError } from "@/lib/errors";
import { activeStaffIdentity, staffIdentityColumns, type StaffIdentity } from "./authenticate-staff";

/**
 * The staff member behind a stamp-API bearer token. Only the latest token of each user and version
 * is stored, so a superseded token simply is not found. Suspension is checked on every call.
 */
export async function verifyStampToken(token: string, db: Db): Promise<StaffIdentity & { apiVersion: "v2" | "v3" }> {
  if (!token || token.length > 2048) throw new AppError("UNAUTHORIZED");
  const [row] = await tokenOwnerQuery(db).execute({ tokenHash: sha256Hex(token) });
  const staff = row && activeStaffIdentity(row);
  if (!staff) throw new AppError("UNAUTHORIZED");
  return { ...staff, apiVersion: row.apiVersion };
}

/**
 * One statement reads the token, its user and organization on every stamp request; prepared once
 * per database, so the SQL is not rebuilt each time.
 */
function prepareTokenOwnerQuery(db: Db) {
  return db
    .select({ apiVersion: stampApiTokens.apiVersion, ...staffIdentityColumns })
    .from(stampApiTokens)
    .innerJoin(users, eq(users.id, stampApiTokens.userId))
    .innerJoin(organizations, eq(users.organizationId, organizations.id))
    .where(and(eq(stampApiTokens.tokenHash, sql.placeholder("tokenHash")), gt(stampApiTokens.expiresAt, sql`now()`)))
    .limit(1)
    .prepare("verify_stamp_token");
}

const tokenOwnerQueries = new WeakMap<Db, ReturnType<typeof prepareTokenOwnerQuery>>();

function tokenOwnerQuery(db: Db) {
  let query = tokenOwnerQueries.get(db);
  if (!query) tokenOwnerQueries.set(db, (query = prepareTokenOwnerQuery(db)));
  return query;
}
