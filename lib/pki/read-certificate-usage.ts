import { readStrictDer, type DerNode } from "./der-tree";
import { x509 } from "./x509-provider";

/**
 * The three extensions a chain check judges a certificate's purpose by (RFC 5280 4.2.1.3, 4.2.1.9,
 * 4.2.1.12), each undefined when the certificate does not carry it.
 */
export type CertificateUsage = {
  /** keyUsage: bit i of the BIT STRING as 1 << i, as @peculiar/x509's KeyUsageFlags number them. */
  keyUsage?: number;
  /** extKeyUsage: the purposes' OIDs in dotted form. */
  extendedKeyUsage?: string[];
  basicConstraints?: { ca: boolean; pathLength?: number };
};

const KEY_USAGE = "2.5.29.15";
const BASIC_CONSTRAINTS = "2.5.29.19";
const EXTENDED_KEY_USAGE = "2.5.29.37";

/**
 * The certificate's usage extensions. @peculiar/x509 parses every extension of a certificate the
 * first time one is asked for, 2–4 ms for a certificate it has never seen: every process signature
 * has a fresh one, whose level is derived right after it is built. A certificate in strict DER
 * whose extension values are all strict DER is read here directly, in microseconds; anything else
 * (BER, a value the strict reader leaves, a field past what x509 reads as a number) is read by
 * x509 as before, which also throws where it threw. `certificate` is the x509 object the caller
 * already holds for the same bytes (a chain check has parsed it), used only on that path.
 *
 * One difference is kept on purpose: x509 also refuses a certificate one of whose *other* known
 * extensions (a CRL distribution point, a policy) is well-formed DER but not that extension's
 * shape. This reading does not look at those; the certificate's issuer signed them, and no check
 * here depends on them.
 */
export function readCertificateUsage(certificateDer: Uint8Array, certificate: () => x509.X509Certificate): CertificateUsage {
  return readStrictUsage(certificateDer) ?? readUsageWithX509(certificate());
}

/** The reading @peculiar/x509 gives: the reference the strict path must agree with (read-certificate-usage.test.ts). */
export function readUsageWithX509(certificate: x509.X509Certificate): CertificateUsage {
  const usage: CertificateUsage = {};
  const keyUsage = certificate.getExtension(x509.KeyUsagesExtension);
  if (keyUsage) usage.keyUsage = keyUsage.usages;
  const extended = certificate.getExtension(x509.ExtendedKeyUsageExtension);
  if (extended) usage.extendedKeyUsage = extended.usages.map(String);
  const constraints = certificate.getExtension(x509.BasicConstraintsExtension);
  if (constraints) usage.basicConstraints = constraints.pathLength === undefined ? { ca: constraints.ca } : { ca: constraints.ca, pathLength: constraints.pathLength };
  return usage;
}

/** Undefined whenever anything is not the plain form: the caller then asks x509. */
function readStrictUsage(certificateDer: Uint8Array): CertificateUsage | undefined {
  const whole = readStrictDer(certificateDer);
  if (!whole || whole.end !== certificateDer.length || whole.node.kind !== "sequence") return undefined;
  const tbs = whole.node.children[0];
  if (tbs?.kind !== "sequence") return undefined;
  // extensions are [3] EXPLICIT, the last field of a v3 TBSCertificate
  const tagged = tbs.children.find((field) => field.tagClass === 3 && field.tagNumber === 3);
  const usage: CertificateUsage = {};
  if (!tagged) return usage;
  if (!tagged.constructed || tagged.children.length !== 1 || tagged.children[0].kind !== "sequence") return undefined;
  const seen = new Set<string>();
  for (const extension of tagged.children[0].children) {
    const fields = extension.kind === "sequence" ? extension.children : [];
    const id = fields[0];
    const value = fields[fields.length - 1];
    if (id?.kind !== "oid" || value?.kind !== "octetString" || value.constructed || fields.length > 3) return undefined;
    if (fields.length === 3 && !isBoolean(fields[1])) return undefined;
    const inner = readStrictDer(value.content);
    if (!inner || inner.end !== value.content.length) return undefined;
    // x509 answers with the first extension of a type, as this does
    if (seen.has(id.oid!)) continue;
    seen.add(id.oid!);
    if (id.oid === KEY_USAGE) {
      const flags = keyUsageFlags(inner.node);
      if (flags === undefined) return undefined;
      usage.keyUsage = flags;
    } else if (id.oid === EXTENDED_KEY_USAGE) {
      if (inner.node.kind !== "sequence" || !inner.node.children.every((purpose) => purpose.kind === "oid")) return undefined;
      usage.extendedKeyUsage = inner.node.children.map((purpose) => purpose.oid!);
    } else if (id.oid === BASIC_CONSTRAINTS) {
      const constraints = basicConstraints(inner.node);
      if (!constraints) return undefined;
      usage.basicConstraints = constraints;
    }
  }
  return usage;
}

const isBoolean = (node: DerNode | undefined) => node !== undefined && node.tagClass === 1 && node.tagNumber === 1 && !node.constructed;
const isInteger = (node: DerNode | undefined) => node?.kind === "integer" && !node.constructed && node.tagClass === 1;

/** KeyUsage ::= BIT STRING; the unused trailing bits are not counted (x509's BitString.toNumber). */
function keyUsageFlags(node: DerNode): number | undefined {
  if (node.tagClass !== 1 || node.tagNumber !== 3 || node.constructed) return undefined;
  const unused = node.content[0];
  const octets = node.content.subarray(1);
  // nine named bits fit in two octets; a longer string is left to x509's own arithmetic
  if (octets.length === 0 || octets.length > 2) return undefined;
  let flags = 0;
  const bits = octets.length * 8 - unused;
  for (let bit = 0; bit < bits; bit++) if (octets[bit >> 3] & (0x80 >> (bit & 7))) flags |= 1 << bit;
  return flags;
}

/** BasicConstraints ::= SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER (0..MAX) OPTIONAL } */
function basicConstraints(node: DerNode): CertificateUsage["basicConstraints"] | undefined {
  if (node.kind !== "sequence") return undefined;
  const hasCa = isBoolean(node.children[0]);
  const ca = hasCa && node.children[0].content[0] !== 0;
  const rest = node.children.slice(hasCa ? 1 : 0);
  if (rest.length > 1) return undefined;
  const first = rest[0];
  if (first === undefined) return { ca };
  // a small non-negative pathLenConstraint; a negative or wide one is left to x509
  if (!isInteger(first) || first.content.length > 3 || first.content[0] & 0x80) return undefined;
  const pathLength = first.content.reduce((sum, octet) => sum * 256 + octet, 0);
  return { ca, pathLength };
}
