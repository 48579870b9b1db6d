import { createHash } from "node:crypto";
import { readX509Certificate, x509 } from "@/lib/pki/x509-provider";

// the chains of a few organizations: every signature of one of them reads the same handful of certificates
const MAX_ENTRIES = 512;
const certificates = new Map<string, x509.X509Certificate>();
const crlIssueTimes = new Map<string, Date>();

function remember<T>(cache: Map<string, T>, key: string, read: () => T): T {
  const known = cache.get(key);
  if (known) return known;
  const value = read();
  // a full cache starts over: entries are cheap to read again, and a burst of outside certificates cannot grow it
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(key, value);
  return value;
}

/**
 * A certificate parsed once per thread, keyed by the SHA-256 of its DER: the same bytes are the same
 * certificate, so a re-issued one (new serial, new bytes) is parsed afresh. Callers only read it.
 */
export function readCertificateOnce(der: Uint8Array): x509.X509Certificate {
  return remember(certificates, createHash("sha256").update(der).digest("hex"), () => readX509Certificate(der));
}

/** thisUpdate of a CRL, read once per DER (a new issue has a new number and new bytes). */
export function crlIssueTime(der: Uint8Array): Date {
  return remember(crlIssueTimes, createHash("sha256").update(der).digest("hex"), () => new x509.X509Crl(new Uint8Array(der)).thisUpdate);
}
