import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { pkiCertificates } from "@/db/schema";
import { createPkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { decryptPrivateKey } from "@/lib/pki/encrypt-private-key";
import { loadIssuedCertificate, type CertificateWithKey } from "@/lib/pki/issued-certificate";
import type { Pkcs11Token } from "@/lib/pki/pkcs11-token";
import { tokenKeyMaker, tokenKeyOfRow } from "./platform-token";
import { keyAad, lockPkiCreation, storeCertificate, type CertificatePurpose } from "./store-certificate";
import { processSingleton } from "@/lib/process-wide/singleton";

export type PlatformPki = {
  environment: "quality" | "production";
  root: CertificateWithKey;
  issuing: CertificateWithKey;
  tsa: CertificateWithKey;
  issuingRowId: string;
  rootRowId: string;
};

export type PkiSettings = {
  environment: "quality" | "production";
  secretKey: Uint8Array;
  publicUrl: string;
  /** With PKCS11_MODULE: new CA, TSA and agent keys are generated in this token (lib/certificates/platform-token.ts). */
  token?: Pkcs11Token;
};

export const crlBaseUrl = (publicUrl: string) => `${publicUrl}/api/pki/crl`;


/**
 * The built-in root CA, issuing CA and TSA certificate for this environment, generated on first
 * use and kept in the database with encrypted keys, or with their keys in the PKCS#11 token (the
 * row names the key). Rows of either kind keep working whatever the setting. Cached per process.
 */
export function loadPlatformPki({ db, settings }: { db: Db; settings: PkiSettings }): Promise<PlatformPki> {
  const cache = processSingleton("firmaviva.platform-pki", () => new Map<string, Promise<PlatformPki>>());
  const cached = cache.get(settings.environment);
  if (cached) return cached;
  const loading = loadOrCreate(db, settings).catch((error) => {
    cache.delete(settings.environment);
    throw error;
  });
  cache.set(settings.environment, loading);
  return loading;
}

async function loadOrCreate(db: Db, settings: PkiSettings): Promise<PlatformPki> {
  const existing = await readHierarchy(db, settings);
  if (existing) return existing;
  return db.transaction(async (tx) => {
    await lockPkiCreation(`platform:${settings.environment}`, tx);
    const again = await readHierarchy(tx, settings);
    if (again) return again;
    const options = { environment: settings.environment, crlBaseUrl: crlBaseUrl(settings.publicUrl) };
    const hierarchy = settings.token
      ? await createPkiHierarchy(options, tokenKeyMaker(settings.token, `ca-${settings.environment}`))
      : await createPkiHierarchy(options);
    const common = { environment: settings.environment, secretKey: settings.secretKey } as const;
    const root = await storeCertificate({ ...common, certificate: hierarchy.root, purpose: "root" }, tx);
    const issuing = await storeCertificate({ ...common, certificate: hierarchy.issuing, purpose: "issuing", chainDer: [hierarchy.root.certificateDer] }, tx);
    await storeCertificate({ ...common, certificate: hierarchy.tsa, purpose: "tsa", chainDer: [hierarchy.issuing.certificateDer, hierarchy.root.certificateDer] }, tx);
    return { environment: settings.environment, ...hierarchy, issuingRowId: issuing.id, rootRowId: root.id };
  });
}

async function readHierarchy(db: Db, settings: PkiSettings): Promise<PlatformPki | null> {
  const pick = async (purpose: CertificatePurpose) => {
    const [row] = await db
      .select()
      .from(pkiCertificates)
      .where(and(eq(pkiCertificates.purpose, purpose), eq(pkiCertificates.environment, settings.environment), isNull(pkiCertificates.organizationId), isNull(pkiCertificates.revokedAt)))
      .orderBy(desc(pkiCertificates.createdAt))
      .limit(1);
    return row;
  };
  const [root, issuing, tsa] = await Promise.all([pick("root"), pick("issuing"), pick("tsa")]);
  if (!root || !issuing || !tsa) return null;
  const open = async (row: typeof root): Promise<CertificateWithKey> => {
    const certificateDer = new Uint8Array(row.certificateDer);
    if (row.privateKeyLabel) return { certificateDer, privateKey: tokenKeyOfRow(settings.token, { purpose: row.purpose, privateKeyLabel: row.privateKeyLabel }) };
    return loadIssuedCertificate(
      certificateDer,
      decryptPrivateKey(new Uint8Array(row.privateKeyEncrypted!), settings.secretKey, keyAad(row.purpose, row.serialNumberHex)),
    );
  };
  return {
    environment: settings.environment,
    root: await open(root),
    issuing: await open(issuing),
    tsa: await open(tsa),
    issuingRowId: issuing.id,
    rootRowId: root.id,
  };
}
