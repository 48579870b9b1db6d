import { createHash, createPublicKey, type KeyObject } from "node:crypto";
import { parseCertificateFields, type CertificateFields } from "./parse-certificate-fields";
import { readCertificateUsage, type CertificateUsage } from "./read-certificate-usage";
import { readX509Certificate, x509 } from "./x509-provider";

/**
 * Parsing certificates and CRLs and checking who signed them, remembered within one process (one
 * pool worker). Every PDF a worker verifies carries the same platform chain and CRLs, and the level
 * of each signed output is measured by verifying it again, so the same few certificates were parsed
 * and their signatures verified many times per file. Only pure functions of the exact DER bytes are
 * remembered, keyed by the SHA-256 of every DER involved: the answer "did the key of this issuer
 * sign these bytes" never depends on the time or on anything else, and a different (forged)
 * certificate or CRL with the same names has another key. Validity dates, revocation and trust are
 * judged afresh on every call by the callers.
 */

// Caches are bounded in entries and in the DER bytes they hold; a hostile file can only evict.
const MAX_ENTRIES = 512;
const MAX_BYTES = 8 * 1024 * 1024;
const MAX_ITEM_BYTES = 256 * 1024;

/** A map that forgets the least recently used entries past `maxEntries` or `maxBytes`. */
export class BoundedCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
    private readonly maxItemBytes = MAX_ITEM_BYTES,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // most recently used last, so eviction drops the least recently used first
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, bytes: number): void {
    if (bytes > this.maxItemBytes || this.entries.has(key)) return;
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

const certificates = new BoundedCache<x509.X509Certificate>(MAX_ENTRIES, MAX_BYTES);
const fields = new BoundedCache<CertificateFields>(MAX_ENTRIES, MAX_BYTES);
const crls = new BoundedCache<x509.X509Crl>(MAX_ENTRIES / 8, MAX_BYTES);
const publicKeys = new BoundedCache<KeyObject>(MAX_ENTRIES, MAX_BYTES);
const usages = new BoundedCache<CertificateUsage>(MAX_ENTRIES, MAX_BYTES);
const signedBy = new BoundedCache<boolean>(MAX_ENTRIES * 4, Number.POSITIVE_INFINITY);
const verifyingKeys = new BoundedCache<CryptoKey>(MAX_ENTRIES, MAX_BYTES);

function sha256(der: Uint8Array | ArrayBuffer): string {
  return createHash("sha256")
    .update(der instanceof ArrayBuffer ? new Uint8Array(der) : der)
    .digest("hex");
}

/** The parsed certificate of exactly these DER bytes; throws when they are not one. */
export function readCertificate(der: Uint8Array): x509.X509Certificate {
  const key = sha256(der);
  const known = certificates.get(key);
  if (known) return known;
  const certificate = readX509Certificate(der);
  certificates.set(key, certificate, der.length);
  return certificate;
}

/** The issuer, serial, subject and key of exactly these DER bytes (shared: never modify them); throws when unreadable. */
export function readCertificateFields(der: Uint8Array): CertificateFields {
  const key = sha256(der);
  const known = fields.get(key);
  if (known) return known;
  const parsed = parseCertificateFields(der);
  fields.set(key, parsed, der.length);
  return parsed;
}

/** The subject public key of exactly these certificate bytes as a node key (immutable, so shared); throws when unreadable. */
export function readCertificatePublicKey(der: Uint8Array): KeyObject {
  const key = sha256(der);
  const known = publicKeys.get(key);
  if (known) return known;
  const publicKey = createPublicKey({ key: Buffer.from(readCertificateFields(der).subjectPublicKeyInfoDer), format: "der", type: "spki" });
  publicKeys.set(key, publicKey, der.length);
  return publicKey;
}

/** The key usage, extended key usage and basic constraints of this parsed certificate (shared: never modify them); throws where x509 throws. */
export function readUsage(certificate: x509.X509Certificate): CertificateUsage {
  const key = sha256(certificate.rawData);
  const known = usages.get(key);
  if (known) return known;
  const usage = readCertificateUsage(new Uint8Array(certificate.rawData), () => certificate);
  usages.set(key, usage, certificate.rawData.byteLength);
  return usage;
}

/** A root (or other self-issued certificate): its subject and issuer names are the same bytes. Read through the cache: every signature asks it of the same chain. */
export function isSelfIssued(certificateDer: Uint8Array): boolean {
  const { subjectDer, issuerDer } = readCertificateFields(certificateDer);
  return Buffer.from(subjectDer).equals(Buffer.from(issuerDer));
}

/** The parsed CRL of exactly these DER bytes; throws when they are not one. */
export function readCrl(der: Uint8Array): x509.X509Crl {
  const key = sha256(der);
  const known = crls.get(key);
  if (known) return known;
  const crl = new x509.X509Crl(new Uint8Array(der));
  crls.set(key, crl, der.length);
  return crl;
}

/** The signature of `child` verifies with the public key of `issuer` (signature only: no dates, no names). */
export async function isCertificateSignedBy(child: x509.X509Certificate, issuer: x509.X509Certificate): Promise<boolean> {
  const issuerKey = sha256(issuer.rawData);
  return remembered(`cert|${sha256(child.rawData)}|${issuerKey}`, async () => child.verify({ publicKey: await verifyingKey(issuer, issuerKey, child.signatureAlgorithm), signatureOnly: true }));
}

/**
 * The issuer's public key imported for one signature algorithm, as x509's `verify` would import it
 * (the key's algorithm with the signature's): x509 exported and imported the key again for every
 * certificate it checked, about a millisecond for each fresh signer certificate. Only a key that
 * imported is kept; a refused one throws, as it threw inside `verify`.
 */
async function verifyingKey(issuer: x509.X509Certificate, issuerKey: string, signatureAlgorithm: Algorithm): Promise<CryptoKey> {
  const algorithm = { ...issuer.publicKey.algorithm, ...signatureAlgorithm };
  const key = `${issuerKey}|${JSON.stringify(algorithm)}`;
  const known = verifyingKeys.get(key);
  if (known) return known;
  const imported = await issuer.publicKey.export(algorithm, ["verify"]);
  verifyingKeys.set(key, imported, issuer.publicKey.rawData.byteLength);
  return imported;
}

/** The signature of `crl` verifies with the public key of `issuer` (signature only: not its dates). */
export async function isCrlSignedBy(crl: x509.X509Crl, issuer: x509.X509Certificate): Promise<boolean> {
  return remembered(`crl|${sha256(crl.rawData)}|${sha256(issuer.rawData)}`, () => crl.verify({ publicKey: issuer.publicKey }));
}

async function remembered(key: string, verify: () => Promise<boolean>): Promise<boolean> {
  const known = signedBy.get(key);
  if (known !== undefined) return known;
  let valid: boolean;
  try {
    valid = await verify();
  } catch {
    // a key or algorithm the crypto provider refuses cannot have signed it; not remembered, so a
    // passing failure of the provider is never kept as a verdict
    return false;
  }
  signedBy.set(key, valid, 0);
  return valid;
}
