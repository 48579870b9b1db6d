"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runStaffAction, type ActionResult } from "@/lib/http/run-staff-action";
import { parseWith } from "@/lib/request-reading/parse-input";
import { approveIdentityReview } from "@/lib/identity-reviews/approve-identity-review";
import { rejectIdentityReview } from "@/lib/identity-reviews/reject-identity-review";

const ZReviewDecision = z.object({ reviewId: z.uuid(), reason: z.string().max(300).optional() });

/** Approve a self-supplied ID photo (identity:review): the signer's level becomes document-reviewed. */
export async function approveIdentityReviewAction(input: unknown): Promise<ActionResult> {
  return runStaffAction("identity:review", async (staff, { db }) => {
    const { reviewId } = parseWith(ZReviewDecision, input);
    const { signing, soleReviewerException } = await approveIdentityReview({ reviewId, staff }, db);
    revalidatePath("/identity-reviews");
    // the creator approving their own process is allowed only as the only reviewer, and says so
    const exception = soleReviewerException ? " Usted creó el proceso y es el único revisor de la organización: la aprobación queda registrada como excepción." : "";
    return { message: `${signing ? "Identidad aprobada; la firma se está produciendo." : "Identidad aprobada; el firmante puede firmar."}${exception}` };
  });
}

/** Reject it with a reason the signer sees: it counts as a failed facial try. */
export async function rejectIdentityReviewAction(input: unknown): Promise<ActionResult> {
  return runStaffAction("identity:review", async (staff, { db }) => {
    const { reviewId, reason } = parseWith(ZReviewDecision, input);
    const { locked, attemptsLeft } = await rejectIdentityReview({ reviewId, reason: reason ?? "", staff }, db);
    revalidatePath("/identity-reviews");
    return { message: locked ? "Identidad rechazada; el firmante quedó bloqueado (sin intentos)." : `Identidad rechazada; al firmante le quedan ${attemptsLeft} intento(s).` };
  });
}
