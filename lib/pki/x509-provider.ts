// @peculiar/x509 resolves its services through tsyringe, which needs reflect-metadata loaded first.
import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import { webcrypto } from "node:crypto";

// Node's webcrypto satisfies the DOM Crypto interface at runtime; the node typings differ slightly.
x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export { x509 };

/** Parses DER bytes of any backing buffer (x509 wants an ArrayBuffer-backed view). */
export function readX509Certificate(certificateDer: Uint8Array): x509.X509Certificate {
  return new x509.X509Certificate(new Uint8Array(certificateDer));
}
