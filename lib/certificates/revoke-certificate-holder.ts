import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { certificateHolders, pkiCertificates } from "@/db/schema";
import { AppError } from "@/lib/errors";

/**
 * Revokes a holder and their certificate together: signing refuses the holder at once and the
 * certificate enters the issuing CA's next CRL (publish-crl re-signs when a revocation is newer).
 */
export async function revokeCertificateHolder(input: { organizationId: string; holderId: string }, db: Db) {
  return db.transaction(async (tx) => {
    const now = new Date();
    const [holder] = await tx
      .update(certificateHolders)
      .set({ revokedAt: now })
      .where(and(eq(certificateHolders.id, input.holderId), eq(certificateHolders.organizationId, input.organizationId), isNull(certificateHolders.revokedAt)))
      .returning({ signUsername: certificateHolders.signUsername, certificateId: certificateHolders.certificateId });
    if (!holder) throw new AppError("NOT_FOUND", "el titular no existe o ya está revocado");
    await tx
      .update(pkiCertificates)
      .set({ revokedAt: now })
      .where(and(eq(pkiCertificates.id, holder.certificateId), isNull(pkiCertificates.revokedAt)));
    return holder;
  });
}
