import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processSigners } from "@/db/schema";
import { concludeProcess } from "@/lib/processes/conclude-process";
import { recordProcessEvent } from "@/lib/processes/record-process-event";
import { actingSigner, resolveSigningLink } from "./resolve-signing-link";

/**
 * A signer refuses to sign: the signer and the process become `rejected` and the callback is
 * queued. On a shared link the signer is the one who verified their ID (signerId).
 */
export async function declineSignature(input: { token: string; signerId?: string; reason: string }, db: Db): Promise<{ processStatus: "rejected" }> {
  return db.transaction(async (tx) => {
    const context = await resolveSigningLink({ token: input.token, lock: true }, tx);
    const signer = actingSigner(context, input.signerId);
    const reason = input.reason.trim().slice(0, 500);
    await tx
      .update(processSigners)
      .set({ status: "rejected", signData: { ...signer.signData, date: Math.floor(Date.now() / 1000), result: "rejected" } })
      .where(eq(processSigners.id, signer.id));
    await recordProcessEvent({ processId: context.process.id, organizationId: context.process.organizationId, kind: "declined", signerId: signer.id, detail: { reason } }, tx);
    await concludeProcess({ process: context.process, status: "rejected", signerId: signer.id, detail: { reason } }, tx);
    return { processStatus: "rejected" as const };
  });
}
