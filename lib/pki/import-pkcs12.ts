import { createHmac, createPrivateKey, createPublicKey, type KeyObject, timingSafeEqual } from "node:crypto";
import * as pkijs from "pkijs";
import { octetStringContent } from "@/lib/pki/asn1-reading";
import { decryptPkcs12Content } from "@/lib/pki/decrypt-pkcs12-content";
import { PkiError } from "@/lib/pki/errors";
import { oids } from "@/lib/pki/object-identifiers";
import { parseCertificateFields } from "@/lib/pki/parse-certificate-fields";
import { KdfBudget, derivePkcs12Key, type Pkcs12Hash, pkcs12KeyPurpose } from "@/lib/pki/pkcs12-key-derivation";

export type ImportedPkcs12 = {
  certificateDer: Uint8Array;
  /** Issuers of the certificate, nearest first, then any other certificates in the file. */
  chainDer: Uint8Array[];
  /** Normalized PKCS#8 (RSA or EC) of the key that matches certificateDer. */
  pkcs8: Uint8Array;
};

const bagIds = {
  key: "1.2.840.113549.1.12.10.1.1",
  shroudedKey: "1.2.840.113549.1.12.10.1.2",
  certificate: "1.2.840.113549.1.12.10.1.3",
  safeContents: "1.2.840.113549.1.12.10.1.6",
};
const x509CertificateType = "1.2.840.113549.1.9.22.1";
const macHashes: Record<string, Pkcs12Hash> = {
  [oids.sha1]: "sha1",
  [oids.sha256]: "sha256",
  [oids.sha384]: "sha384",
  [oids.sha512]: "sha512",
};

const invalid = (message: string) => new PkiError("INVALID_PKCS12", message);
const wrongPassword = () => new PkiError("WRONG_PKCS12_PASSWORD", "Wrong PKCS#12 password");

/** OCTET STRING contents, including BER constructed strings written by some exporters. */
const octets = (block: unknown) => octetStringContent(block, "OCTET STRING", () => invalid("Expected an OCTET STRING"));

function verifyMac(mac: pkijs.MacData, authenticatedSafe: Uint8Array, password: string, budget: KdfBudget): void {
  const hash = macHashes[mac.mac.digestAlgorithm.algorithmId];
  if (!hash) throw new PkiError("UNSUPPORTED_PKCS12_ALGORITHM", `Unsupported PKCS#12 MAC ${mac.mac.digestAlgorithm.algorithmId}`);
  const expected = octets(mac.mac.digest);
  const salt = octets(mac.macSalt);
  const key = derivePkcs12Key(hash, password, salt, mac.iterations ?? 1, pkcs12KeyPurpose.mac, expected.length, budget);
  const actual = createHmac(hash, key).update(authenticatedSafe).digest();
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) throw wrongPassword();
}

type Collected = { keys: Uint8Array[]; certificates: Uint8Array[] };

function collectBags(bags: readonly pkijs.SafeBag[], password: string, into: Collected, budget: KdfBudget): void {
  for (const bag of bags) {
    if (bag.bagId === bagIds.key) {
      into.keys.push(new Uint8Array((bag.bagValue as pkijs.PrivateKeyInfo).toSchema().toBER()));
    } else if (bag.bagId === bagIds.shroudedKey) {
      const shrouded = bag.bagValue as pkijs.PKCS8ShroudedKeyBag;
      into.keys.push(decryptPkcs12Content(shrouded.encryptionAlgorithm, octets(shrouded.encryptedData), password, budget));
    } else if (bag.bagId === bagIds.certificate) {
      const certBag = bag.bagValue as pkijs.CertBag;
      if (certBag.certId === x509CertificateType) into.certificates.push(octets(certBag.certValue));
    } else if (bag.bagId === bagIds.safeContents) {
      collectBags((bag.bagValue as pkijs.SafeContents).safeBags, password, into, budget);
    }
    // CRL and secret bags carry nothing we sign with
  }
}

function parseSafeContents(der: Uint8Array, password: string, into: Collected, budget: KdfBudget): void {
  let safeContents: pkijs.SafeContents;
  try {
    safeContents = pkijs.SafeContents.fromBER(new Uint8Array(der));
  } catch {
    throw invalid("Malformed PKCS#12 SafeContents");
  }
  collectBags(safeContents.safeBags, password, into, budget);
}

function orderChain(leaf: Uint8Array, others: Uint8Array[]): Uint8Array[] {
  const remaining = [...others];
  const chain: Uint8Array[] = [];
  let current = parseCertificateFields(leaf);
  for (;;) {
    const issuerDer = Buffer.from(current.issuerDer);
    if (issuerDer.equals(current.subjectDer)) break; // self-signed: the path is complete
    const index = remaining.findIndex((candidate) => issuerDer.equals(parseCertificateFields(candidate).subjectDer));
    if (index < 0) break;
    const [issuer] = remaining.splice(index, 1);
    chain.push(issuer!);
    current = parseCertificateFields(issuer!);
  }
  return [...chain, ...remaining];
}

function readKey(pkcs8: Uint8Array, macVerified: boolean): KeyObject {
  try {
    return createPrivateKey({ key: Buffer.from(pkcs8), format: "der", type: "pkcs8" });
  } catch {
    // without a MAC, a wrong password can still pass the padding check and yield garbage
    throw macVerified ? invalid("The PKCS#12 private key is unreadable") : wrongPassword();
  }
}

/** Reads the signing key, its certificate and the chain from a PKCS#12 (.p12/.pfx) file. */
export async function importPkcs12(bytes: Uint8Array, password: string): Promise<ImportedPkcs12> {
  let pfx: pkijs.PFX;
  try {
    pfx = pkijs.PFX.fromBER(new Uint8Array(bytes));
  } catch {
    throw invalid("Not a PKCS#12 file");
  }
  if (pfx.authSafe.contentType !== oids.data) throw invalid("Public-key protected PKCS#12 files are not supported");
  const authenticatedSafeDer = octets(pfx.authSafe.content);
  const budget = new KdfBudget();
  if (pfx.macData) verifyMac(pfx.macData, authenticatedSafeDer, password, budget);

  let authenticatedSafe: pkijs.AuthenticatedSafe;
  try {
    authenticatedSafe = pkijs.AuthenticatedSafe.fromBER(new Uint8Array(authenticatedSafeDer));
  } catch {
    throw invalid("Malformed PKCS#12 AuthenticatedSafe");
  }
  const collected: Collected = { keys: [], certificates: [] };
  for (const contentInfo of authenticatedSafe.safeContents) {
    if (contentInfo.contentType === oids.data) {
      parseSafeContents(octets(contentInfo.content), password, collected, budget);
    } else if (contentInfo.contentType === oids.encryptedData) {
      const encrypted = new pkijs.EncryptedData({ schema: contentInfo.content });
      const info = encrypted.encryptedContentInfo;
      const ciphertext = new Uint8Array(info.getEncryptedContent());
      parseSafeContents(decryptPkcs12Content(info.contentEncryptionAlgorithm, ciphertext, password, budget), password, collected, budget);
    }
  }
  if (collected.keys.length === 0) throw invalid("The PKCS#12 file has no private key");
  if (collected.certificates.length === 0) throw invalid("The PKCS#12 file has no certificate");

  for (const pkcs8 of collected.keys) {
    const key = readKey(pkcs8, Boolean(pfx.macData));
    if (key.asymmetricKeyType !== "rsa" && key.asymmetricKeyType !== "ec") {
      throw new PkiError("UNSUPPORTED_KEY", `Unsupported key type ${key.asymmetricKeyType ?? "unknown"}`);
    }
    const publicKey = createPublicKey(key);
    const certificateDer = collected.certificates.find((certificate) => {
      const spki = parseCertificateFields(certificate).subjectPublicKeyInfoDer;
      try {
        return createPublicKey({ key: Buffer.from(spki), format: "der", type: "spki" }).equals(publicKey);
      } catch {
        return false;
      }
    });
    if (!certificateDer) continue;
    return {
      certificateDer,
      chainDer: orderChain(certificateDer, collected.certificates.filter((certificate) => certificate !== certificateDer)),
      pkcs8: new Uint8Array(key.export({ type: "pkcs8", format: "der" })),
    };
  }
  throw invalid("No certificate in the PKCS#12 file matches its private key");
}
