import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, users } from "@/db/schema";

/** Every organization with its staff count, for platform administrators. */
export async function listOrganizations(db: Db) {
  return db
    .select({
      domain: organizations.domain,
      displayName: organizations.displayName,
      status: organizations.status,
      allowPrivateCallbacks: organizations.allowPrivateCallbacks,
      staff: sql<number>`count(${users.id})::int`,
      createdAt: organizations.createdAt,
    })
    .from(organizations)
    .leftJoin(users, eq(users.organizationId, organizations.id))
    .groupBy(organizations.id)
    .orderBy(asc(organizations.domain));
}
