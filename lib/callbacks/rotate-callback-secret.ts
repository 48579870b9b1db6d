import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import { AppError } from "@/lib/errors";

/** Rotates the callback secret by bumping its version: the next delivery is signed with the new derived secret. */
export async function rotateCallbackSecret(input: { organizationId: string }, db: Db): Promise<number> {
  const [row] = await db
    .update(organizations)
    .set({ callbackSecretVersion: sql`${organizations.callbackSecretVersion} + 1` })
    .where(eq(organizations.id, input.organizationId))
    .returning({ version: organizations.callbackSecretVersion });
  if (!row) throw new AppError("NOT_FOUND");
  return row.version;
}
