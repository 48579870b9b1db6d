import { der } from "@/lib/pki/der-encoder";
import { PkiError } from "@/lib/pki/errors";
import type { CertificateWithKey } from "@/lib/pki/issued-certificate";
import { x509SigningWith } from "@/lib/pki/x509-signing";
import { readX509Certificate, x509 } from "@/lib/pki/x509-provider";

const crlNumberOid = "2.5.29.20";

export type RevokedCertificate = { serialNumberHex: string; revokedAt: Date };

/** X.509 v2 CRL signed by the issuer, with authorityKeyIdentifier and cRLNumber (RFC 5280 5.2). */
export async function buildCrl(
  issuer: CertificateWithKey,
  options: { revoked: readonly RevokedCertificate[]; crlNumber: bigint; thisUpdate: Date; nextUpdate: Date },
): Promise<Uint8Array> {
  if (options.crlNumber < 0n) throw new PkiError("INVALID_INPUT", "crlNumber must not be negative");
  if (options.nextUpdate <= options.thisUpdate) throw new PkiError("INVALID_INPUT", "nextUpdate must follow thisUpdate");
  const issuerCertificate = readX509Certificate(issuer.certificateDer);
  const issuerKeyId = issuerCertificate.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  if (!issuerKeyId) throw new PkiError("INVALID_CERTIFICATE", "The issuer certificate has no subject key identifier");

  const entries = options.revoked.map((entry) => {
    const serialNumber = entry.serialNumberHex.toLowerCase().replace(/^0x/, "");
    if (!/^[0-9a-f]+$/.test(serialNumber)) throw new PkiError("INVALID_INPUT", `Invalid serial number ${entry.serialNumberHex}`);
    return { serialNumber, revocationDate: entry.revokedAt };
  });

  const signing = x509SigningWith(issuer.privateKey);
  const crl = await x509.X509CrlGenerator.create({
    issuer: issuerCertificate.subjectName,
    thisUpdate: options.thisUpdate,
    nextUpdate: options.nextUpdate,
    entries,
    signingAlgorithm: { name: signing.signingKey.algorithm.name, hash: "SHA-256" } as EcdsaParams,
    signingKey: signing.signingKey,
    extensions: [
      new x509.AuthorityKeyIdentifierExtension(issuerKeyId),
      new x509.Extension(crlNumberOid, false, der.integer(options.crlNumber)),
    ],
  }, signing.crypto);
  return new Uint8Array(crl.rawData);
}
