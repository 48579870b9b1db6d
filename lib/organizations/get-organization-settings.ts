import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import { AppError } from "@/lib/errors";

export type OrganizationSettings = typeof organizations.$inferSelect;

/** The signed-in staff member's own organization and its settings. */
export async function getOrganizationSettings(input: { organizationId: string }, db: Db): Promise<OrganizationSettings> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, input.organizationId)).limit(1);
  if (!row) throw new AppError("NOT_FOUND");
  return row;
}
