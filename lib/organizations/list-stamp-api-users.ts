import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { stampApiTokens, users } from "@/db/schema";

export type StampApiUser = { id: string; email: string; role: string; disabled: boolean; issued: { v2?: Date; v3?: Date } };

/** Staff of the organization (the stamp-API users) with when each API version last issued them a token. */
export async function listStampApiUsers(input: { organizationId: string }, db: Db): Promise<StampApiUser[]> {
  const rows = await db
    .select({ id: users.id, email: users.email, role: users.role, disabledAt: users.disabledAt, apiVersion: stampApiTokens.apiVersion, issuedAt: stampApiTokens.issuedAt })
    .from(users)
    .leftJoin(stampApiTokens, eq(stampApiTokens.userId, users.id))
    .where(eq(users.organizationId, input.organizationId))
    .orderBy(asc(users.email));
  const byUser = new Map<string, StampApiUser>();
  for (const r of rows) {
    const user = byUser.get(r.id) ?? { id: r.id, email: r.email, role: r.role, disabled: !!r.disabledAt, issued: {} };
    if (r.apiVersion && r.issuedAt) user.issued[r.apiVersion] = r.issuedAt;
    byUser.set(r.id, user);
  }
  return [...byUser.values()];
}
