import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { ZOrganizationSettings, type OrganizationSettingsInput } from "./schemas";

/** Link mode, approval requirement and enabled ID types; they apply to processes created afterwards. */
export async function updateOrganizationSettings(input: { organizationId: string; settings: OrganizationSettingsInput }, db: Db) {
  const settings = ZOrganizationSettings.parse(input.settings);
  const [row] = await db.update(organizations).set(settings).where(eq(organizations.id, input.organizationId)).returning();
  if (!row) throw new AppError("NOT_FOUND");
  return row;
}
