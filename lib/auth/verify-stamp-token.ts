import { and, eq, gt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { stampApiTokens } from "@/db/schema";
import { sha256Hex } from "@/lib/crypto/derive-key";
import { AppError } from "@/lib/errors";
import { loadStaffIdentity, type StaffIdentity } from "./authenticate-staff";

/**
 * The staff member behind a stamp-API bearer token. Only the latest token of each user and version
 * is stored, so a superseded token simply is not found. Suspension is checked on every call.
 */
export async function verifyStampToken(token: string, db: Db): Promise<StaffIdentity & { apiVersion: "v2" | "v3" }> {
  if (!token || token.length > 2048) throw new AppError("UNAUTHORIZED");
  const [row] = await db
    .select({ userId: stampApiTokens.userId, apiVersion: stampApiTokens.apiVersion })
    .from(stampApiTokens)
    .where(and(eq(stampApiTokens.tokenHash, sha256Hex(token)), gt(stampApiTokens.expiresAt, new Date())))
    .limit(1);
  if (!row) throw new AppError("UNAUTHORIZED");
  const staff = await loadStaffIdentity(row.userId, db);
  if (!staff) throw new AppError("UNAUTHORIZED");
  return { ...staff, apiVersion: row.apiVersion };
}
