import { tokenExpired } from "@/lib/crypto/signed-token";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processSigners } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { BlobStore } from "@/lib/blob-store/blob-store";
import { AppError } from "@/lib/errors";
import { decryptBiometric } from "@/lib/crypto/encrypt-biometric";
import { selfieLinkValid } from "./selfie-link";

/**
 * GET /api/selfies/<signerId>?try&expires&signature for a credential with biometrics:read: the
 * decrypted selfie of that facial try, when the link was issued for the caller's organization and
 * has not expired. Another organization's signer, another try or a forged signature is 404 (no
 * oracle); a genuine link past its 120 s is 410, so the integrator knows to list again.
 */
export async function openSelfieLink(
  input: { organizationId: string; signerId: string; facialId: string; expires: number; signature: string; actor: string },
  { db, ...deps }: { db: Db; blobs: BlobStore; secretKey: Uint8Array },
): Promise<Uint8Array> {
  const uuid = /^[0-9a-f-]{36}$/;
  if (!uuid.test(input.signerId) || !uuid.test(input.facialId) || !Number.isSafeInteger(input.expires)) throw new AppError("NOT_FOUND");
  if (!selfieLinkValid(input, input, deps.secretKey)) throw new AppError("NOT_FOUND");
  if (tokenExpired(input.expires)) throw new AppError("GONE", "el enlace venció; vuelva a listar el proceso");
  const [signer] = await db
    .select({ signData: processSigners.signData, processId: processSigners.processId })
    .from(processSigners)
    .where(and(eq(processSigners.id, input.signerId), eq(processSigners.organizationId, input.organizationId)))
    .limit(1);
  const facial = signer?.signData.facial;
  if (!facial || facial.id !== input.facialId || !facial.selfie) throw new AppError("NOT_FOUND");
  const bytes = await deps.blobs.get(facial.selfie);
  if (!bytes) throw new AppError("NOT_FOUND");
  await recordAuditEvent({ organizationId: input.organizationId, actor: input.actor, action: "selfie.read", target: signer.processId, detail: { signerId: input.signerId, facialId: input.facialId } }, db);
  return facial.selfie.endsWith(".enc") ? decryptBiometric(bytes, deps.secretKey, input.organizationId) : bytes;
}
