import { createPrivateKey, webcrypto } from "node:crypto";
import { PkiError } from "@/lib/pki/errors";

const curveNames: Record<string, string> = { prime256v1: "P-256", secp384r1: "P-384", secp521r1: "P-521" };

/** Imports a PKCS#8 RSA or EC key as a signing CryptoKey; the algorithm is read from the key itself. */
export async function importPrivateKey(pkcs8: Uint8Array, extractable = false): Promise<CryptoKey> {
  let keyType: string | undefined;
  let curve: string | undefined;
  try {
    const key = createPrivateKey({ key: Buffer.from(pkcs8), format: "der", type: "pkcs8" });
    keyType = key.asymmetricKeyType;
    curve = key.asymmetricKeyDetails?.namedCurve;
  } catch (error) {
    throw new PkiError("UNSUPPORTED_KEY", "The private key is not a readable PKCS#8 key", { cause: error });
  }
  let algorithm: RsaHashedImportParams | EcKeyImportParams;
  if (keyType === "rsa") algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
  else if (keyType === "ec" && curve && curveNames[curve]) algorithm = { name: "ECDSA", namedCurve: curveNames[curve] };
  else throw new PkiError("UNSUPPORTED_KEY", `Unsupported key type ${keyType ?? "unknown"}${curve ? ` (${curve})` : ""}`);
  return (await webcrypto.subtle.importKey("pkcs8", pkcs8, algorithm, extractable, ["sign"])) as CryptoKey;
}
