import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { pkiCertificates } from "@/db/schema";

/** The organization's current agent certificate (imported or built-in), or null until the first agente signature issues one. */
export async function getAgentCertificate(input: { organizationId: string; environment: "quality" | "production" }, db: Db) {
  const [row] = await db
    .select({ subject: pkiCertificates.subject, issuerName: pkiCertificates.issuerName, source: pkiCertificates.source, notAfter: pkiCertificates.notAfter, notBefore: pkiCertificates.notBefore })
    .from(pkiCertificates)
    .where(
      and(
        eq(pkiCertificates.organizationId, input.organizationId),
        eq(pkiCertificates.purpose, "agent"),
        eq(pkiCertificates.environment, input.environment),
        isNull(pkiCertificates.revokedAt),
      ),
    )
    .orderBy(desc(pkiCertificates.createdAt))
    .limit(1);
  return row ?? null;
}
