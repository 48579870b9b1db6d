import { createHash, type KeyObject } from "node:crypto";
import { der } from "@/lib/pki/der-encoder";
import { PkiError } from "@/lib/pki/errors";
import { oids } from "@/lib/pki/object-identifiers";
import { isSelfIssued, readCertificateFields, readCertificatePublicKey } from "@/lib/pki/check-pki-signatures";
import { buildSigningCertificateV2Attribute } from "@/lib/pki/signing-certificate-v2-attribute";
import { keySignerFor, type KeySigner, type SigningKey } from "@/lib/pki/signing-key";

export type CmsSignerInput = {
  certificateDer: Uint8Array;
  /** In memory, or a label in the PKCS#11 token (lib/pki/signing-key.ts). */
  privateKey: SigningKey;
  /**
   * The issuer chain (the signer certificate itself may be repeated; it is deduplicated). A root
   * (self-issued) may be included, for validation data; it never goes into the CMS.
   */
  chainDer: readonly Uint8Array[];
};

/** Everything a SignerInfo needs, derived once per certificate and key. */
export type PreparedCmsSigner = {
  certificateDer: Uint8Array;
  /** Signer certificate first, then the chain without roots, without duplicates. */
  certificatesDer: readonly Uint8Array[];
  issuerAndSerialNumberDer: Uint8Array;
  signingCertificateV2AttributeDer: Uint8Array;
  signatureAlgorithmDer: Uint8Array;
  /** SHA-256 signature; ECDSA values are DER ECDSA-Sig-Value, RSA is PKCS#1 v1.5. Asynchronous for a token key. */
  sign(data: Uint8Array): Uint8Array | Promise<Uint8Array>;
};

type CertificateEntry = { issuerAndSerialNumberDer: Uint8Array; signingCertificateV2AttributeDer: Uint8Array; publicKey: KeyObject };
type KeyEntry = { signer: KeySigner; matchingCertificates: Set<string> };

// Keyed by certificate hash, so bytes re-read from storage still hit; bounded because certificates are per signer.
const certificateCache = new Map<string, CertificateEntry>();
const certificateCacheLimit = 512;
const keyCache = new WeakMap<SigningKey, KeyEntry>();

function certificateEntry(certificateDer: Uint8Array, hash: string): CertificateEntry {
  const cached = certificateCache.get(hash);
  if (cached) return cached;
  // through the per-thread caches the verifier reads too: the level derived in this worker reads this certificate's fields and key next
  const fields = readCertificateFields(certificateDer);
  let publicKey: KeyObject;
  try {
    publicKey = readCertificatePublicKey(certificateDer);
  } catch (error) {
    throw new PkiError("UNSUPPORTED_KEY", "The certificate public key is not supported", { cause: error });
  }
  const entry = {
    issuerAndSerialNumberDer: der.sequence(fields.issuerDer, fields.serialNumberDer),
    signingCertificateV2AttributeDer: buildSigningCertificateV2Attribute(certificateDer),
    publicKey,
  };
  if (certificateCache.size >= certificateCacheLimit) certificateCache.delete(certificateCache.keys().next().value!);
  certificateCache.set(hash, entry);
  return entry;
}

function keyEntry(privateKey: SigningKey): KeyEntry {
  const cached = keyCache.get(privateKey);
  if (cached) return cached;
  const entry: KeyEntry = { signer: keySignerFor(privateKey), matchingCertificates: new Set() };
  keyCache.set(privateKey, entry);
  return entry;
}

const ecdsaWithSha256 = der.sequence(der.oid(oids.ecdsaWithSha256));
const sha256WithRsa = der.sequence(der.oid(oids.sha256WithRsaEncryption), der.null());

export function prepareCmsSigner(input: CmsSignerInput): PreparedCmsSigner {
  const hash = createHash("sha256").update(input.certificateDer).digest("hex");
  const certificate = certificateEntry(input.certificateDer, hash);
  const key = keyEntry(input.privateKey);
  if (!key.matchingCertificates.has(hash)) {
    // a PKCS#12 or a database row can pair a key with the wrong certificate; the CMS would never verify
    if (!key.signer.publicKey.equals(certificate.publicKey)) {
      throw new PkiError("KEY_CERTIFICATE_MISMATCH", "The private key does not belong to the signer certificate");
    }
    key.matchingCertificates.add(hash);
  }

  const seen = new Set<string>([hash]);
  const certificatesDer = [input.certificateDer];
  for (const chainCertificate of input.chainDer) {
    const chainHash = createHash("sha256").update(chainCertificate).digest("hex");
    if (seen.has(chainHash)) continue;
    seen.add(chainHash);
    // the trust anchor stays out of the CMS: poppler 22.12 (NSS) then fails every second signature
    // of a file ("Unknown issue with Certificate"); validators take it from their trust store or the DSS
    if (isSelfIssued(chainCertificate)) continue;
    certificatesDer.push(chainCertificate);
  }

  return {
    certificateDer: input.certificateDer,
    certificatesDer,
    issuerAndSerialNumberDer: certificate.issuerAndSerialNumberDer,
    signingCertificateV2AttributeDer: certificate.signingCertificateV2AttributeDer,
    signatureAlgorithmDer: key.signer.kind === "ec" ? ecdsaWithSha256 : sha256WithRsa,
    sign: key.signer.sign,
  };
}
