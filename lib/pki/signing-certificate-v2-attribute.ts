import { createHash } from "node:crypto";
import { der } from "@/lib/pki/der-encoder";
import { oids } from "@/lib/pki/object-identifiers";
import { parseCertificateFields } from "@/lib/pki/parse-certificate-fields";

/**
 * ESS signing-certificate-v2 attribute (RFC 5035), required by PAdES baseline and by
 * `openssl ts -verify`; pkijs has no class for it.
 *
 *   SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 }
 *   ESSCertIDv2 ::= SEQUENCE { hashAlgorithm DEFAULT sha256, certHash OCTET STRING, issuerSerial IssuerSerial }
 *   IssuerSerial ::= SEQUENCE { issuer GeneralNames, serialNumber INTEGER }
 */
export function buildSigningCertificateV2Attribute(certificateDer: Uint8Array): Uint8Array {
  const { issuerDer, serialNumberDer } = parseCertificateFields(certificateDer);
  const certHash = createHash("sha256").update(certificateDer).digest();
  const issuerSerial = der.sequence(
    // GeneralNames with one directoryName, [4] EXPLICIT because Name is a CHOICE
    der.sequence(der.explicit(4, issuerDer)),
    serialNumberDer,
  );
  // hashAlgorithm is omitted: it is SHA-256, the DEFAULT, and DER forbids encoding defaults
  const essCertIdV2 = der.sequence(der.octetString(certHash), issuerSerial);
  return der.sequence(der.oid(oids.signingCertificateV2Attribute), der.set(der.sequence(der.sequence(essCertIdV2))));
}
