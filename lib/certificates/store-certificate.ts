import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { pkiCertificates } from "@/db/schema";
import { encryptPrivateKey } from "@/lib/pki/encrypt-private-key";
import { isTokenKey, type SigningKey } from "@/lib/pki/signing-key";
import { readCertificate } from "@/lib/pki/check-pki-signatures";

export type CertificatePurpose = (typeof pkiCertificates.$inferSelect)["purpose"];

/** The AAD binds an encrypted key to its certificate row's purpose, so keys cannot be swapped between rows. */
export const keyAad = (purpose: CertificatePurpose, serialNumberHex: string) => `pki:${purpose}:${serialNumberHex}`;

/**
 * Persists a certificate and its private key (AES-256-GCM under SECRET_KEY unless already
 * encrypted), or only the label of a key that lives in the PKCS#11 token.
 */
export async function storeCertificate(
  input: {
    /** The private key as PKCS#8 (encrypted here under SECRET_KEY) or already encrypted; none for signer certificates. */
    certificate: { certificateDer: Uint8Array; pkcs8?: Uint8Array; encryptedKey?: Uint8Array; privateKey?: SigningKey };
    purpose: CertificatePurpose;
    environment: "quality" | "production";
    organizationId?: string | null;
    chainDer?: Uint8Array[];
    source?: "built-in" | "pkcs12";
    secretKey: Uint8Array;
  },
  db: Db,
) {
  // through the cache: the validation data of a fresh signer certificate reads the same bytes next
  const parsed = readCertificate(input.certificate.certificateDer);
  const serialNumberHex = parsed.serialNumber.toLowerCase();
  const tokenKey = input.certificate.privateKey && isTokenKey(input.certificate.privateKey) ? input.certificate.privateKey : undefined;
  const encrypted = input.certificate.pkcs8
    ? encryptPrivateKey(input.certificate.pkcs8, input.secretKey, keyAad(input.purpose, serialNumberHex))
    : input.certificate.encryptedKey;
  const [row] = await db
    .insert(pkiCertificates)
    .values({
      organizationId: input.organizationId ?? null,
      purpose: input.purpose,
      environment: input.environment,
      subject: parsed.subject,
      serialNumberHex,
      issuerName: parsed.issuer,
      certificateDer: input.certificate.certificateDer,
      chainDer: input.chainDer?.length ? concatDer(input.chainDer) : null,
      privateKeyEncrypted: encrypted ?? null,
      privateKeyLabel: tokenKey?.label ?? null,
      source: input.source ?? "built-in",
      notBefore: parsed.notBefore,
      notAfter: parsed.notAfter,
    })
    .returning();
  return row;
}

/** Serializes whole-platform key creation across instances sharing one PostgreSQL. */
export async function lockPkiCreation(scope: string, db: Db) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`pki:${scope}`}))`);
}

// DER certificates are self-delimiting, so a chain is stored as their concatenation.
function concatDer(certificates: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(certificates.map((c) => Buffer.from(c))));
}

export function splitDer(bytes: Uint8Array | null): Uint8Array[] {
  if (!bytes) return [];
  const out: Uint8Array[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const lengthByte = bytes[offset + 1];
    let length: number;
    let header: number;
    if (lengthByte < 0x80) {
      length = lengthByte;
      header = 2;
    } else {
      const count = lengthByte & 0x7f;
      length = 0;
      for (let i = 0; i < count; i++) length = length * 256 + bytes[offset + 2 + i];
      header = 2 + count;
    }
    out.push(bytes.subarray(offset, offset + header + length));
    offset += header + length;
  }
  return out;
}
