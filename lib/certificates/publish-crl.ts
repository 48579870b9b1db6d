import { and, eq, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { crlIssues, pkiCertificates } from "@/db/schema";
import { buildCrl } from "@/lib/pki/build-crl";
import { crlSlug } from "@/lib/pki/crl-distribution-url";
import { readX509Certificate } from "@/lib/pki/x509-provider";
import { readCertificate, readCrl } from "@/lib/pki/check-pki-signatures";
import { sql } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import type { CertificateWithKey } from "@/lib/pki/issued-certificate";
import { loadPlatformPki, type PkiSettings } from "./load-platform-pki";
import { executedRows } from "@/db/executed-rows";

const CRL_LIFETIME_MS = 24 * 3600 * 1000;
/** A stored CRL is served again while it has more than this left before nextUpdate (the reuse window). */
const REUSE_WINDOW_MS = CRL_LIFETIME_MS / 2;

/**
 * The current CRL of the root or issuing CA, named by the file in its certificates' CRL
 * distribution point. Re-signed when a certificate was revoked since, or when it is due.
 */
export async function publishCrl(fileName: string, { db, settings }: { db: Db; settings: PkiSettings }): Promise<Uint8Array> {
  const issuer = (await platformIssuers(db, settings)).find((i) => `${crlSlug(commonName(i.certificate.certificateDer))}.crl` === fileName);
  if (!issuer) throw new AppError("NOT_FOUND");
  return currentCrl(issuer, db);
}

/**
 * The current CRLs of the root and issuing CA, for the DSS of long-term-validation documents. A
 * CRL says nothing about a certificate issued after its thisUpdate (EU DSS rejects it, and so does
 * our verifier), so a stored CRL older than `coveringSince` (the newest notBefore it must cover) is
 * never handed out: a new one is issued on demand instead.
 */
export async function currentPlatformCrls({ coveringSince = new Date(0) }: { coveringSince?: Date }, { db, settings }: { db: Db; settings: PkiSettings }): Promise<Uint8Array[]> {
  const issuers = await platformIssuers(db, settings);
  // every signature asks: in the usual case both stored CRLs are still good, which one statement shows
  const reusable = await storedCrlsIfReusable(issuers, db, coveringSince);
  return reusable ?? Promise.all(issuers.map((issuer) => currentCrl(issuer, db, coveringSince)));
}

/**
 * The stored CRL of every issuer, read with the newest revocation under that issuer in one
 * statement, when each may be handed out again (the rule of `currentCrl`); undefined when any may
 * not, and `currentCrl` decides issuer by issuer.
 */
async function storedCrlsIfReusable(issuers: Issuer[], db: Db, coveringSince: Date): Promise<Uint8Array[] | undefined> {
  const issuerNames = new Map(issuers.map((issuer) => [issuer.rowId, readCertificate(issuer.certificate.certificateDer).subject]));
  const nameOfIssuer = sql.join([sql`case ${crlIssues.issuerCertificateId}`, ...[...issuerNames].map(([rowId, name]) => sql`when ${rowId} then ${name}`), sql`end`], sql` `);
  const rows = await db
    .select({
      issuerCertificateId: crlIssues.issuerCertificateId,
      crlDer: crlIssues.crlDer,
      nextUpdate: crlIssues.nextUpdate,
      // milliseconds as text: both drivers read it the same way
      latestRevocationMs: sql<string | null>`(select (extract(epoch from max(${pkiCertificates.revokedAt})) * 1000)::bigint::text from ${pkiCertificates} where ${pkiCertificates.issuerName} = ${nameOfIssuer} and ${pkiCertificates.revokedAt} is not null)`,
    })
    .from(crlIssues)
    .where(inArray(crlIssues.issuerCertificateId, [...issuerNames.keys()]));
  const crls: Uint8Array[] = [];
  for (const issuer of issuers) {
    const row = rows.find((candidate) => candidate.issuerCertificateId === issuer.rowId);
    if (!row || !isReusable(row, Number(row.latestRevocationMs ?? 0), coveringSince)) return undefined;
    crls.push(new Uint8Array(row.crlDer));
  }
  return crls;
}

/** A stored CRL is handed out again while inside its reuse window, newer than every revocation it must list, and not older than what it must cover. */
function isReusable(stored: { crlDer: Uint8Array; nextUpdate: Date }, latestRevocationMs: number, coveringSince: Date): boolean {
  const issuedAt = readCrl(stored.crlDer).thisUpdate.getTime();
  // both sides are whole seconds read from DER, as validators compare them
  return stored.nextUpdate.getTime() - Date.now() > REUSE_WINDOW_MS && latestRevocationMs < issuedAt && issuedAt >= coveringSince.getTime();
}

type Issuer = { rowId: string; certificate: CertificateWithKey };

async function platformIssuers(db: Db, settings: PkiSettings): Promise<Issuer[]> {
  const pki = await loadPlatformPki({ db, settings });
  return [
    { rowId: pki.rootRowId, certificate: pki.root },
    { rowId: pki.issuingRowId, certificate: pki.issuing },
  ];
}

async function currentCrl(issuer: Issuer, db: Db, coveringSince = new Date(0)): Promise<Uint8Array> {
  const issuerName = readCertificate(issuer.certificate.certificateDer).subject;
  const revoked = await db
    .select({ serialNumberHex: pkiCertificates.serialNumberHex, revokedAt: pkiCertificates.revokedAt })
    .from(pkiCertificates)
    .where(and(eq(pkiCertificates.issuerName, issuerName), isNotNull(pkiCertificates.revokedAt)));
  const [current] = await db.select().from(crlIssues).where(eq(crlIssues.issuerCertificateId, issuer.rowId));
  const latestRevocation = Math.max(0, ...revoked.map((r) => r.revokedAt!.getTime()));
  if (current && isReusable(current, latestRevocation, coveringSince)) return new Uint8Array(current.crlDer);
  const [{ crlNumber }] = executedRows<{ crlNumber: string }>(await db.execute(sql`select nextval('crl_number_seq')::text as "crlNumber"`));
  // never dated before what it must cover (a certificate back-dated into the future is not ours to judge)
  const thisUpdate = new Date(Math.max(Date.now(), coveringSince.getTime()));
  const nextUpdate = new Date(thisUpdate.getTime() + CRL_LIFETIME_MS);
  const crlDer = await buildCrl(issuer.certificate, {
    revoked: revoked.map((r) => ({ serialNumberHex: r.serialNumberHex, revokedAt: r.revokedAt! })),
    crlNumber: BigInt(crlNumber),
    thisUpdate,
    nextUpdate,
  });
  await db
    .insert(crlIssues)
    .values({ issuerCertificateId: issuer.rowId, crlNumber: BigInt(crlNumber), crlDer, nextUpdate })
    // the row's own values on conflict (`excluded`): the DER is sent once, not twice
    .onConflictDoUpdate({
      target: crlIssues.issuerCertificateId,
      set: { crlNumber: sql`excluded.crl_number`, crlDer: sql`excluded.crl_der`, nextUpdate: sql`excluded.next_update` },
    });
  return crlDer;
}

function commonName(certificateDer: Uint8Array): string {
  const subject = readX509Certificate(certificateDer).subjectName;
  return subject.getField("CN")[0] ?? "";
}
