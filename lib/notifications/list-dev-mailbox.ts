import { desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { devMailbox } from "@/db/schema";

/** Messages kept instead of sent (no SMTP_URL / WhatsApp settings), newest first, for the organization. */
export async function listDevMailbox(input: { organizationId: string; limit?: number }, db: Db) {
  return db
    .select()
    .from(devMailbox)
    .where(eq(devMailbox.organizationId, input.organizationId))
    .orderBy(desc(devMailbox.createdAt), desc(devMailbox.id))
    .limit(input.limit ?? 20);
}
