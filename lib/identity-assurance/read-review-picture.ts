import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { identityReviews } from "@/db/schema";
import type { BlobStore } from "@/lib/blob-store/blob-store";
import { AppError } from "@/lib/errors";
import { decryptBiometric } from "@/lib/crypto/encrypt-biometric";

export const reviewPictures = ["card", "portrait", "selfie"] as const;
export type ReviewPicture = (typeof reviewPictures)[number];

/** One picture of a review (the ID photo, the portrait cut from it, frame 0), scoped to the organization. */
export async function readReviewPicture(
  input: { organizationId: string; reviewId: string; picture: string },
  { db, ...deps }: { db: Db; blobs: BlobStore; secretKey: Uint8Array },
): Promise<Uint8Array> {
  if (!/^[0-9a-f-]{36}$/.test(input.reviewId) || !(reviewPictures as readonly string[]).includes(input.picture)) throw new AppError("NOT_FOUND");
  const [review] = await db
    .select()
    .from(identityReviews)
    .where(and(eq(identityReviews.id, input.reviewId), eq(identityReviews.organizationId, input.organizationId)))
    .limit(1);
  if (!review) throw new AppError("NOT_FOUND");
  const key = input.picture === "card" ? review.cardBlobKey : input.picture === "portrait" ? review.portraitBlobKey : review.selfieBlobKey;
  const bytes = await deps.blobs.get(key);
  if (!bytes) throw new AppError("NOT_FOUND");
  return decryptBiometric(bytes, deps.secretKey, input.organizationId);
}
