import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processSigners } from "@/db/schema";
import type { PersonNames } from "@/lib/identity-registry/schemas";
import type { IdentityRegistry } from "@/lib/identity-registry/identity-registry";
import { recordProcessEvent } from "@/lib/processes/record-process-event";
import { actingSigner, resolveSigningLink, type SignerRow } from "./resolve-signing-link";
import { SignerFlowError } from "./signer-flow-error";
import { reopenIdentityReview } from "./reopen-identity-review";

export type ProposedNames = PersonNames & { source: "confirmed" | "process" | "registry" | "eid" | "none" };

/**
 * The names the identification step shows for the signer to confirm or correct: theirs once
 * confirmed, else those the process was created with, else the identity registry's, else blank.
 */
export async function proposeSignerNames(signer: SignerRow, registry: IdentityRegistry): Promise<ProposedNames> {
  if (signer.identity?.level === "eid" && signer.pinfo) return { ...signer.pinfo, source: "eid" };
  if (signer.namesConfirmedAt && signer.pinfo) return { ...signer.pinfo, source: "confirmed" };
  if (signer.proposedPinfo) return { ...signer.proposedPinfo, source: "process" };
  const found = await registry.findNames({ organizationId: signer.organizationId, nat: signer.nat, docId: signer.docId });
  return found ? { ...found, source: "registry" } : { given_name: "", family_name: "", source: "none" };
}

/**
 * The signer confirms their given and family names on the identification step: they become the
 * wire `pinfo` and, at signing, the certificate subject, the stamp and the callback. Names a proof
 * froze (issue 36) stay: the provider's cannot change, and other names than those a reviewer
 * approved void the approval and put the signer back under review, on the same try.
 */
export async function confirmSignerNames(input: { token: string; signerId: string; names: PersonNames }, db: Db): Promise<void> {
  const context = await resolveSigningLink({ token: input.token }, db);
  const signer = actingSigner(context, input.signerId);
  // the provider vouched for these names: the signer confirms them as they are
  const fromEid = signer.identity?.level === "eid" ? signer.pinfo : null;
  if (fromEid && (fromEid.given_name !== input.names.given_name || fromEid.family_name !== input.names.family_name)) throw new SignerFlowError("names_from_eid");
  const frozen = signer.identity?.names;
  const voids = Boolean(frozen && (frozen.given_name !== input.names.given_name || frozen.family_name !== input.names.family_name));
  await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(processSigners)
      .set({ pinfo: { given_name: input.names.given_name, family_name: input.names.family_name }, namesConfirmedAt: new Date(), ...(voids ? { identity: null } : {}) })
      .where(and(eq(processSigners.id, signer.id), eq(processSigners.status, "pending")))
      .returning({ id: processSigners.id });
    if (!updated) throw new SignerFlowError("already_signed");
    await recordProcessEvent({ processId: context.process.id, organizationId: context.process.organizationId, kind: "names_confirmed", signerId: signer.id }, tx);
    if (voids) await reopenIdentityReview({ signerId: signer.id, checkId: signer.signData.facial?.id }, tx);
  });
}
