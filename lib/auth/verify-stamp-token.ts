import { and, eq, gt } from "drizzle-orm";
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
  // one statement: the token, its user and organization are read together on every stamp request
  const [row] = await db
    .select({ apiVersion: stampApiTokens.apiVersion, ...staffIdentityColumns })
    .from(stampApiTokens)
    .innerJoin(users, eq(users.id, stampApiTokens.userId))
    .innerJoin(organizations, eq(users.organizationId, organizations.id))
    .where(and(eq(stampApiTokens.tokenHash, sha256Hex(token)), gt(stampApiTokens.expiresAt, new Date())))
    .limit(1);
  const staff = row && activeStaffIdentity(row);
  if (!staff) throw new AppError("UNAUTHORIZED");
  return { ...staff, apiVersion: row.apiVersion };
}
