import { and, eq, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processSigners } from "@/db/schema";
import type { SignatureReport } from "./verification-report";

/**
 * The eID provider's issuer for each trusted `eid` signature that one of our process signers made:
 * read from what our database recorded when that certificate signed (process_signers.certificate_sha256
 * and sign_data.identity.provider), never from the PDF, so a document cannot name its own provider.
 */
export async function findEidIssuers(input: { signatures: SignatureReport[] }, db: Db): Promise<void> {
  const wanted = input.signatures.filter((s) => s.trusted && s.identityLevel === "eid" && s.signerCertificateSha256);
  if (!wanted.length) return;
  const hashes = [...new Set(wanted.map((s) => s.signerCertificateSha256!))].slice(0, 100);
  const rows = await db
    .select({ certificateSha256: processSigners.certificateSha256, signData: processSigners.signData })
    .from(processSigners)
    .where(and(isNotNull(processSigners.certificateSha256), inArray(processSigners.certificateSha256, hashes), eq(processSigners.status, "signed")));
  const issuerOf = new Map(rows.flatMap((r) => (r.signData.identity?.level === "eid" && r.signData.identity.provider ? [[r.certificateSha256!, r.signData.identity.provider] as const] : [])));
  for (const signature of wanted) {
    const issuer = issuerOf.get(signature.signerCertificateSha256!);
    if (issuer) signature.eidIssuer = issuer;
  }
}
