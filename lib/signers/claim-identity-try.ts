import { and, eq, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processSigners } from "@/db/schema";
import { MAX_FACIAL_ATTEMPTS } from "./open-signing-link";
import { SignerFlowError } from "./signer-flow-error";

/**
 * Counts one eID identity try with a single conditional UPDATE, so parallel callbacks cannot exceed
 * the three tries (the same budget as facial tries, which are counted by their tickets instead:
 * facial-ticket-ledger.ts). A locked signer, or one out of tries, gets `locked`.
 */
export async function claimIdentityTry(signerId: string, db: Db): Promise<number> {
  const [counted] = await db
    .update(processSigners)
    .set({ facialAttempts: sql`${processSigners.facialAttempts} + 1` })
    .where(and(eq(processSigners.id, signerId), lt(processSigners.facialAttempts, MAX_FACIAL_ATTEMPTS), isNull(processSigners.lockedAt)))
    .returning({ attempts: processSigners.facialAttempts });
  if (!counted) throw new SignerFlowError("locked");
  return counted.attempts;
}
