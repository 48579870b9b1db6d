import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { certificateHolders, pkiCertificates } from "@/db/schema";

/** The organization's certificate holders for `digital` signatures, with their certificate's subject and validity. */
export async function listCertificateHolders(input: { organizationId: string }, db: Db) {
  return db
    .select({
      id: certificateHolders.id,
      signUsername: certificateHolders.signUsername,
      revokedAt: certificateHolders.revokedAt,
      lockedUntil: certificateHolders.lockedUntil,
      subject: pkiCertificates.subject,
      source: pkiCertificates.source,
      notAfter: pkiCertificates.notAfter,
    })
    .from(certificateHolders)
    .innerJoin(pkiCertificates, eq(certificateHolders.certificateId, pkiCertificates.id))
    .where(eq(certificateHolders.organizationId, input.organizationId))
    .orderBy(asc(certificateHolders.signUsername));
}
