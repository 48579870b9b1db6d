import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { identityReviews } from "@/db/schema";

export type IdentityReviewRow = typeof identityReviews.$inferSelect;

/** The signer's review awaiting a staff decision, if any (at most one: a partial unique index). */
export async function findPendingReview(signerId: string, db: Db): Promise<IdentityReviewRow | undefined> {
  const [row] = await db.select().from(identityReviews).where(and(eq(identityReviews.signerId, signerId), eq(identityReviews.status, "pending"))).limit(1);
  return row;
}

export async function hasPendingReview(signerId: string, db: Db): Promise<boolean> {
  return (await findPendingReview(signerId, db)) !== undefined;
}

/** The signer's latest review whatever its state (the signer page says why a rejected one failed). */
export async function findLatestReview(signerId: string, db: Db): Promise<IdentityReviewRow | undefined> {
  const [row] = await db.select().from(identityReviews).where(eq(identityReviews.signerId, signerId)).orderBy(desc(identityReviews.createdAt)).limit(1);
  return row;
}
