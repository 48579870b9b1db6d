import type { Db } from "@/db/client";
import type { SignerContact } from "@/db/schema";
import { enqueue } from "@/lib/outbox/enqueue";
import type { IssuedLink } from "./issue-signing-links";

export type NotifiableSigner = { id: string; position: number; status: string; contactInfo: SignerContact | null };

/**
 * Queues the e-mail / WhatsApp message with the signing link for each signer who has contact data
 * (in the caller's transaction). With sign order only the next signer is told; the others are told
 * when their turn comes (completeSignerSignature).
 */
export async function queueSignerNotifications(
  input: { processId: string; organizationId: string; signOrder: boolean; signers: NotifiableSigner[]; links: IssuedLink[]; only?: string[] },
  db: Db,
): Promise<number> {
  let pending = input.signers.filter((s) => s.status === "pending").sort((a, b) => a.position - b.position);
  if (input.signOrder) pending = pending.slice(0, 1);
  let queued = 0;
  for (const signer of pending) {
    if (!signer.contactInfo || (input.only && !input.only.includes(signer.id))) continue;
    const link = input.links.find((l) => l.signerId === signer.id) ?? input.links.find((l) => l.signerId === null);
    if (!link) continue;
    await enqueue({
      kind: signer.contactInfo.type === "email" ? "email.send" : "whatsapp.send",
      payload: { processId: input.processId, signerId: signer.id, linkId: link.linkId },
      organizationId: input.organizationId,
    }, db);
    queued++;
  }
  return queued;
}
