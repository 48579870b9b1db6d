import { readX509Certificate, x509 } from "@/lib/pki/x509-provider";
import { identityLevelOfPolicyOid, type IdentityLevel } from "./identity-level";

/**
 * The identity level a signer certificate names in its certificatePolicies (one of our OIDs), or
 * undefined (no such extension, another issuer's policies, an unreadable certificate). Meaningful
 * only when the certificate chains to our CA: anyone can write an OID into a self-made certificate.
 */
export function readIdentityLevel(certificateDer: Uint8Array): IdentityLevel | undefined {
  try {
    const extension = readX509Certificate(certificateDer).getExtension(x509.CertificatePolicyExtension);
    if (!extension) return undefined;
    for (const oid of policyOidsOf(new Uint8Array(extension.value))) {
      const level = identityLevelOfPolicyOid(oid);
      if (level) return level;
    }
  } catch {
    // an unreadable certificate names no level; the chain check reports the damage
  }
  return undefined;
}

/**
 * The policy identifiers of a DER CertificatePolicies value (SEQUENCE OF PolicyInformation, each a
 * SEQUENCE starting with its OID), decoded with BigInt: our UUID arc under 2.25 is a 128-bit number
 * that the x509 library only renders as hex.
 */
export function policyOidsOf(der: Uint8Array): string[] {
  const outer = readTlv(der, 0);
  if (outer.tag !== 0x30) throw new Error("CertificatePolicies is not a SEQUENCE");
  const oids: string[] = [];
  for (let offset = outer.start; offset < outer.end; ) {
    const info = readTlv(der, offset);
    const oid = readTlv(der, info.start);
    if (info.tag !== 0x30 || oid.tag !== 0x06) throw new Error("PolicyInformation without an OID");
    oids.push(decodeOid(der.subarray(oid.start, oid.end)));
    offset = info.end;
  }
  return oids;
}

function readTlv(der: Uint8Array, offset: number): { tag: number; start: number; end: number } {
  const tag = der[offset];
  let length = der[offset + 1];
  let start = offset + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 3) throw new Error("unsupported DER length");
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + der[start + i];
    start += bytes;
  }
  if (tag === undefined || start + length > der.length) throw new Error("truncated DER");
  return { tag, start, end: start + length };
}

function decodeOid(bytes: Uint8Array): string {
  const arcs: bigint[] = [];
  let value = 0n;
  for (const byte of bytes) {
    value = (value << 7n) | BigInt(byte & 0x7f);
    if (!(byte & 0x80)) {
      arcs.push(value);
      value = 0n;
    }
  }
  if (arcs.length === 0) throw new Error("empty OID");
  const first = arcs[0] < 80n ? arcs[0] / 40n : 2n;
  return [first, arcs[0] - first * 40n, ...arcs.slice(1)].join(".");
}
