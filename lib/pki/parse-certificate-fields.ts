import * as asn1js from "asn1js";
import { childrenOf } from "@/lib/pki/der-reading";
import { fromAsn1js, readStrictDer, type DerNode } from "@/lib/pki/der-tree";
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

function children(block: DerNode | undefined): DerNode[] {
  // a certificate and its TBSCertificate are SEQUENCEs: a SET or a tagged field in their place is malformed
  if (block?.kind !== "sequence") throw malformed();
  return childrenOf(block, "certificate", malformed);
}

function encoded(block: DerNode | undefined): Uint8Array {
  if (!block) throw malformed();
  return new Uint8Array(block.bytes);
}

/**
 * The certificate's tree, spanning all its bytes. Strict DER (every certificate we issue) is read
 * directly: asn1js took 1.3 ms for one, on every signature with a fresh certificate. Anything else is
 * parsed by asn1js as before (which also parses OCTET STRING contents on speculation and counts
 * those elements against its limit; the strict reader counts only the certificate's own).
 */
function parseWhole(certificateDer: Uint8Array): DerNode {
  // the tree is read and dropped here (the fields are copied out), so it may view the caller's bytes
  const strict = readStrictDer(certificateDer);
  if (strict?.end === certificateDer.length) return strict.node;
  const parsed = asn1js.fromBER(certificateDer);
  if (parsed.offset !== certificateDer.length || parsed.result.error) {
    throw new PkiError("INVALID_CERTIFICATE", "The certificate is not valid DER");
  }
  return fromAsn1js(parsed.result);
}

export function parseCertificateFields(certificateDer: Uint8Array): CertificateFields {
  const tbs = children(children(parseWhole(certificateDer))[0]);
  // version is [0] EXPLICIT and absent for v1 certificates
  const first = tbs[0];
  const offset = first?.tagClass === 3 && first.tagNumber === 0 ? 1 : 0;
  const serialNumber = tbs[offset];
  if (serialNumber?.kind !== "integer") throw new PkiError("INVALID_CERTIFICATE", "Malformed certificate serial number");
  return {
    serialNumberDer: encoded(serialNumber),
    issuerDer: encoded(tbs[offset + 2]),
    subjectDer: encoded(tbs[offset + 4]),
    subjectPublicKeyInfoDer: encoded(tbs[offset + 5]),
  };
}
