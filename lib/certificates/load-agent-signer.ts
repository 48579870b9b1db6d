import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, pkiCertificates } from "@/db/schema";
import { issueAgentCertificate } from "@/lib/pki/issue-certificate";
import { decryptPrivateKey } from "@/lib/pki/encrypt-private-key";
import { importPrivateKey } from "@/lib/pki/import-private-key";
import type { CmsSignerInput } from "@/lib/pki/prepare-cms-signer";
import { crlBaseUrl, loadPlatformPki, type PkiSettings } from "./load-platform-pki";
import { keyAad, lockPkiCreation, splitDer, storeCertificate } from "./store-certificate";
import { tokenKeyMaker, tokenKeyOfRow } from "./platform-token";
import { processSingleton } from "@/lib/process-wide/singleton";


/**
 * The organization's "agente" certificate: an imported PKCS#12 when there is one, otherwise a
 * certificate issued by the built-in issuing CA on first use (its key generated in the PKCS#11
 * token when one is configured; the signer then carries only the key's label).
 */
export async function loadAgentSigner(organizationId: string, { db, settings }: { db: Db; settings: PkiSettings }): Promise<CmsSignerInput> {
  const row = (await latestAgentRow(organizationId, db, settings)) ?? (await issueAgentRow(organizationId, db, settings));
  const cache = processSingleton("firmaviva.agent-signers", () => new Map<string, { rowId: string; signer: CmsSignerInput }>());
  const cached = cache.get(organizationId);
  if (cached?.rowId === row.id) return cached.signer;
  const privateKey = row.privateKeyLabel
    ? tokenKeyOfRow(settings.token, { purpose: "agent", privateKeyLabel: row.privateKeyLabel })
    : await importPrivateKey(decryptPrivateKey(new Uint8Array(row.privateKeyEncrypted!), settings.secretKey, keyAad("agent", row.serialNumberHex)));
  const signer: CmsSignerInput = {
    certificateDer: new Uint8Array(row.certificateDer),
    privateKey,
    chainDer: splitDer(row.chainDer ? new Uint8Array(row.chainDer) : null),
  };
  cache.set(organizationId, { rowId: row.id, signer });
  return signer;
}

async function latestAgentRow(organizationId: string, db: Db, settings: PkiSettings) {
  const [row] = await db
    .select()
    .from(pkiCertificates)
    .where(
      and(
        eq(pkiCertificates.organizationId, organizationId),
        eq(pkiCertificates.purpose, "agent"),
        eq(pkiCertificates.environment, settings.environment),
        isNull(pkiCertificates.revokedAt),
      ),
    )
    .orderBy(desc(pkiCertificates.createdAt))
    .limit(1);
  return row && row.notAfter > new Date() ? row : undefined;
}

async function issueAgentRow(organizationId: string, db: Db, settings: PkiSettings) {
  const pki = await loadPlatformPki({ db, settings });
  return db.transaction(async (tx) => {
    await lockPkiCreation(`agent:${organizationId}`, tx);
    const again = await latestAgentRow(organizationId, tx, settings);
    if (again) return again;
    const [organization] = await tx.select().from(organizations).where(eq(organizations.id, organizationId));
    const options = { organizationName: organization.displayName, domain: organization.domain, crlBaseUrl: crlBaseUrl(settings.publicUrl) };
    const certificate = settings.token
      ? await issueAgentCertificate(pki.issuing, options, tokenKeyMaker(settings.token, "agent"))
      : await issueAgentCertificate(pki.issuing, options);
    return storeCertificate({
      certificate,
      purpose: "agent",
      environment: settings.environment,
      organizationId,
      chainDer: [pki.issuing.certificateDer], // never the root: poppler then reports "Unknown issue" on a second signature
      secretKey: settings.secretKey,
    }, tx);
  });
}
