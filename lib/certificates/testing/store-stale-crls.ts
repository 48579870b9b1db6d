import type { Db } from "@/db/client";
import { crlIssues } from "@/db/schema";
import { buildCrl } from "@/lib/pki/build-crl";
import { loadPlatformPki, type PkiSettings } from "../load-platform-pki";

/**
 * Makes the platform look like a server that has been up for a while: the stored CRLs of the root
 * and issuing CA were issued `ageMs` ago and are still inside their reuse window, so they predate
 * every certificate issued from now on (which are back-dated 60 s only).
 */
export async function storeStaleCrls(db: Db, settings: PkiSettings, ageMs: number): Promise<void> {
  const pki = await loadPlatformPki({ db, settings });
  const staleAt = new Date(Date.now() - ageMs);
  const nextUpdate = new Date(staleAt.getTime() + 24 * 3600 * 1000);
  for (const [rowId, issuer] of [[pki.rootRowId, pki.root], [pki.issuingRowId, pki.issuing]] as const) {
    const crlDer = await buildCrl(issuer, { revoked: [], crlNumber: 1n, thisUpdate: staleAt, nextUpdate });
    await db.insert(crlIssues).values({ issuerCertificateId: rowId, crlNumber: 1n, crlDer, nextUpdate }).onConflictDoUpdate({ target: crlIssues.issuerCertificateId, set: { crlNumber: 1n, crlDer, nextUpdate } });
  }
}
