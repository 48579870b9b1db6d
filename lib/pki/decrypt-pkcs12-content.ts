import * as asn1js from "asn1js";
import { createDecipheriv, pbkdf2Sync } from "node:crypto";
import * as pkijs from "pkijs";
import { PkiError } from "@/lib/pki/errors";
import { KdfBudget, derivePkcs12Key, pkcs12KeyPurpose } from "@/lib/pki/pkcs12-key-derivation";
import { rc2CbcDecrypt } from "@/lib/pki/rc2-cbc-decrypt";

const pbes2Oid = "1.2.840.113549.1.5.13";
const pbkdf2Oid = "1.2.840.113549.1.5.12";

// PKCS#12 legacy PBE (RFC 7292 appendix C): SHA-1 KDF, then the cipher; RC4 variants are not supported.
const legacySchemes: Record<string, { cipher: "des-ede3-cbc" | "des-ede-cbc" | "rc2"; keyLength: number }> = {
  "1.2.840.113549.1.12.1.3": { cipher: "des-ede3-cbc", keyLength: 24 },
  "1.2.840.113549.1.12.1.4": { cipher: "des-ede-cbc", keyLength: 16 },
  "1.2.840.113549.1.12.1.5": { cipher: "rc2", keyLength: 16 },
  "1.2.840.113549.1.12.1.6": { cipher: "rc2", keyLength: 5 },
};

const pbes2Ciphers: Record<string, { cipher: string; keyLength: number }> = {
  "2.16.840.1.101.3.4.1.2": { cipher: "aes-128-cbc", keyLength: 16 },
  "2.16.840.1.101.3.4.1.22": { cipher: "aes-192-cbc", keyLength: 24 },
  "2.16.840.1.101.3.4.1.42": { cipher: "aes-256-cbc", keyLength: 32 },
  "1.2.840.113549.3.7": { cipher: "des-ede3-cbc", keyLength: 24 },
};

const pbkdf2Prfs: Record<string, string> = {
  "1.2.840.113549.2.7": "sha1",
  "1.2.840.113549.2.8": "sha224",
  "1.2.840.113549.2.9": "sha256",
  "1.2.840.113549.2.10": "sha384",
  "1.2.840.113549.2.11": "sha512",
};

function unsupported(oid: string): PkiError {
  return new PkiError("UNSUPPORTED_PKCS12_ALGORITHM", `Unsupported PKCS#12 encryption algorithm ${oid}`);
}

function malformed(): PkiError {
  return new PkiError("INVALID_PKCS12", "Malformed PKCS#12 encryption parameters");
}

// A padding failure is what a wrong password looks like when there is no MAC to tell us earlier.
function decipher(cipher: string, key: Uint8Array, iv: Uint8Array, data: Uint8Array): Uint8Array {
  try {
    const d = createDecipheriv(cipher, key, iv);
    return new Uint8Array(Buffer.concat([d.update(data), d.final()]));
  } catch {
    throw new PkiError("WRONG_PKCS12_PASSWORD", "Wrong PKCS#12 password");
  }
}

function decryptLegacy(scheme: (typeof legacySchemes)[string], params: asn1js.AsnType, data: Uint8Array, password: string, budget: KdfBudget) {
  if (!(params instanceof asn1js.Sequence)) throw malformed();
  const [salt, iterations] = params.valueBlock.value;
  if (!(salt instanceof asn1js.OctetString) || !(iterations instanceof asn1js.Integer)) throw malformed();
  const saltBytes = salt.valueBlock.valueHexView;
  // a count that does not fit a safe integer is refused by the budget, not truncated
  const rounds = iterations.valueBlock.valueHexView.length > 6 ? Number.MAX_SAFE_INTEGER + 1 : iterations.valueBlock.valueDec;
  const key = derivePkcs12Key("sha1", password, saltBytes, rounds, pkcs12KeyPurpose.key, scheme.keyLength, budget);
  const iv = derivePkcs12Key("sha1", password, saltBytes, rounds, pkcs12KeyPurpose.iv, 8, budget);
  if (scheme.cipher !== "rc2") return decipher(scheme.cipher, key, iv, data);
  try {
    return rc2CbcDecrypt(key, iv, data);
  } catch {
    throw new PkiError("WRONG_PKCS12_PASSWORD", "Wrong PKCS#12 password");
  }
}

function decryptPbes2(params: asn1js.AsnType, data: Uint8Array, password: string, budget: KdfBudget): Uint8Array {
  let pbes2: pkijs.PBES2Params;
  let kdf: pkijs.PBKDF2Params;
  try {
    pbes2 = new pkijs.PBES2Params({ schema: params });
    if (pbes2.keyDerivationFunc.algorithmId !== pbkdf2Oid) throw unsupported(pbes2.keyDerivationFunc.algorithmId);
    kdf = new pkijs.PBKDF2Params({ schema: pbes2.keyDerivationFunc.algorithmParams });
  } catch (error) {
    throw error instanceof PkiError ? error : malformed();
  }
  const scheme = pbes2Ciphers[pbes2.encryptionScheme.algorithmId];
  if (!scheme) throw unsupported(pbes2.encryptionScheme.algorithmId);
  const prfOid = kdf.prf?.algorithmId ?? "1.2.840.113549.2.7";
  const prf = pbkdf2Prfs[prfOid];
  if (!prf) throw unsupported(prfOid);
  const ivBlock = pbes2.encryptionScheme.algorithmParams;
  if (!(ivBlock instanceof asn1js.OctetString) || !(kdf.salt instanceof asn1js.OctetString)) throw malformed();
  // PBKDF2 rounds cost about a sixth of a PKCS#12-KDF round here; counted at that rate
  budget.spend(Math.ceil(kdf.iterationCount / 6) || 0);
  // PBES2 takes the password as its UTF-8 bytes (unlike the BMPString of the PKCS#12 KDF)
  const key = pbkdf2Sync(Buffer.from(password, "utf8"), kdf.salt.valueBlock.valueHexView, kdf.iterationCount, scheme.keyLength, prf);
  return decipher(scheme.cipher, key, ivBlock.valueBlock.valueHexView, data);
}

/** Decrypts a PKCS#12 EncryptedData content or shrouded key bag with PBES2 or the legacy PKCS#12 PBE schemes. */
export function decryptPkcs12Content(algorithm: pkijs.AlgorithmIdentifier, ciphertext: Uint8Array, password: string, budget: KdfBudget = new KdfBudget()): Uint8Array {
  const legacy = legacySchemes[algorithm.algorithmId];
  if (legacy) return decryptLegacy(legacy, algorithm.algorithmParams, ciphertext, password, budget);
  if (algorithm.algorithmId === pbes2Oid) return decryptPbes2(algorithm.algorithmParams, ciphertext, password, budget);
  throw unsupported(algorithm.algorithmId);
}
