import * as asn1js from "asn1js";
import { childrenOf, isContextTag } from "@/lib/pki/asn1-reading";
import { PkiError } from "@/lib/pki/errors";

/** The encoded pieces of a certificate that CMS and ESS structures copy verbatim. */
export type CertificateFields = {
  /** Full TLV of the issuer Name. */
  issuerDer: Uint8Array;
  /** Full TLV of the serialNumber INTEGER. */
  serialNumberDer: Uint8Array;
  /** Full TLV of the subject Name. */
  subjectDer: Uint8Array;
  /** Full TLV of subjectPublicKeyInfo. */
  subjectPublicKeyInfoDer: Uint8Array;
};

const malformed = () => new PkiError("INVALID_CERTIFICATE", "Malformed certificate");

function children(block: asn1js.AsnType | undefined): asn1js.AsnType[] {
  // a certificate and its TBSCertificate are SEQUENCEs: a SET or a tagged field in their place is malformed
  if (!(block instanceof asn1js.Sequence)) throw malformed();
  return childrenOf(block, "certificate", malformed);
}

function encoded(block: asn1js.AsnType | undefined): Uint8Array {
  if (!block) throw malformed();
  return new Uint8Array(block.valueBeforeDecodeView);
}

export function parseCertificateFields(certificateDer: Uint8Array): CertificateFields {
  const parsed = asn1js.fromBER(certificateDer);
  if (parsed.offset !== certificateDer.length || parsed.result.error) {
    throw new PkiError("INVALID_CERTIFICATE", "The certificate is not valid DER");
  }
  const tbs = children(children(parsed.result)[0]);
  // version is [0] EXPLICIT and absent for v1 certificates
  const first = tbs[0];
  const offset = isContextTag(first, 0) ? 1 : 0;
  const serialNumber = tbs[offset];
  if (!(serialNumber instanceof asn1js.Integer)) throw new PkiError("INVALID_CERTIFICATE", "Malformed certificate serial number");
  return {
    serialNumberDer: encoded(serialNumber),
    issuerDer: encoded(tbs[offset + 2]),
    subjectDer: encoded(tbs[offset + 4]),
    subjectPublicKeyInfoDer: encoded(tbs[offset + 5]),
  };
}
