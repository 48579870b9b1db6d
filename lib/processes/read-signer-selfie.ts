import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processSigners } from "@/db/schema";
import type { BlobStore } from "@/lib/blob-store/blob-store";
import { AppError } from "@/lib/errors";
import { decryptBiometric } from "@/lib/crypto/encrypt-biometric";

/**
 * The selfie of a signer's last facial check (sign_data.facial.selfie is a blob key), scoped to the
 * organization. Blobs ending in `.enc` are AES-GCM encrypted and bound to the organization.
 */
export async function readSignerSelfie(
  input: { organizationId: string; signerId: string },
  { db, ...deps }: { db: Db; blobs: BlobStore; secretKey: Uint8Array },
): Promise<Uint8Array> {
  if (!/^[0-9a-f-]{36}$/.test(input.signerId)) throw new AppError("NOT_FOUND");
  const [signer] = await db
    .select({ signData: processSigners.signData })
    .from(processSigners)
    .where(and(eq(processSigners.id, input.signerId), eq(processSigners.organizationId, input.organizationId)))
    .limit(1);
  const key = signer?.signData.facial?.selfie;
  const bytes = key ? await deps.blobs.get(key) : null;
  if (!key || !bytes) throw new AppError("NOT_FOUND");
  return key.endsWith(".enc") ? decryptBiometric(bytes, deps.secretKey, input.organizationId) : bytes;
}
