import { createHash } from "node:crypto";
import { getPublicResource } from "@/lib/outbound-http/get-public-resource";
import { x509 } from "@/lib/pki/x509-provider";
import { readCertificate } from "@/lib/pki/check-pki-signatures";
import type { TaskRunner } from "@/lib/runtime/cpu-pool";
import type { CertificateTasks } from "./certificate-tasks";
import type { OutsideCrlCheck } from "./check-outside-crl";
import { forgetProcessSingleton, processSingleton } from "@/lib/process-wide/singleton";

/** One deadline for every fetch of a chain, which all run at once. */
const DEADLINE_MS = 10_000;
const MAX_CRL_BYTES = 10 * 1024 * 1024;
/** The cache holds at most this many bytes of CRLs, whatever their number. */
const MAX_CACHED_BYTES = 32 * 1024 * 1024;
const CACHE = "firmaviva.outside-crls";
type Cached = { crlDer: Uint8Array; nextUpdate: number };
type Cache = { entries: Map<string, Cached>; bytes: number };

export type OutsideRevocation = {
  crls: Uint8Array[];
  /** Certificates added to the DSS so validators can check those CRLs (issuers the chain left out). */
  certificates: Uint8Array[];
  /** Subjects for which no usable revocation data could be had: the output then stays at B-T. */
  missing: { subject: string; reason: string }[];
};

/**
 * Revocation data for certificates our CAs did not issue (an imported agent certificate, a PKCS#12
 * holder): the CRL at each certificate's distribution point, fetched at signing time with the
 * callbacks' address guard and a size cap, every URL of the chain at once under one deadline. A
 * CRL is parsed and judged in the revocation worker, and used only when its issuer's certificate
 * (from the chain or TRUST_ANCHORS_FILE) verifies it, it is current, and it was issued at or after
 * the certificate's notBefore (the timing rule). Only a CRL whose signature verified is cached,
 * until its nextUpdate, under the address policy it was fetched with (a CRL fetched from a
 * private address for one organization is never served to another), in a cache bounded in bytes.
 */
export async function fetchOutsideRevocation(
  certificatesDer: Uint8Array[],
  options: {
    issuersDer: Uint8Array[];
    isPlatformIssued: (certificate: x509.X509Certificate) => boolean;
    /** Asked once, only when a CRL is to be fetched (most signatures are by our own CAs: no query then). */
    allowPrivate: () => Promise<boolean>;
    /** Parses and judges each CRL off the event loop (its own pool: the signing task waiting on it holds a main one). */
    revocationPool: TaskRunner<CertificateTasks>;
    now?: Date;
  },
): Promise<OutsideRevocation> {
  const now = options.now ?? new Date();
  let allowPrivate: Promise<boolean> | undefined;
  const deadline = Date.now() + DEADLINE_MS;
  const pool = [...certificatesDer, ...options.issuersDer].map((der) => readCertificate(der));
  const outcomes = await Promise.all(
    certificatesDer.map(async (der): Promise<{ crl: Uint8Array; issuer: Uint8Array } | { subject: string; reason: string } | null> => {
      const certificate = readCertificate(der);
      if (certificate.subject === certificate.issuer || options.isPlatformIssued(certificate)) return null;
      const issuer = pool.find((candidate) => candidate.subject === certificate.issuer && candidate !== certificate);
      if (!issuer) return { subject: certificate.subject, reason: "issuer certificate unknown" };
      const urls = distributionUrls(certificate);
      if (urls.length === 0) return { subject: certificate.subject, reason: "no http CRL distribution point" };
      const issuerDer = new Uint8Array(issuer.rawData);
      const allowed = await (allowPrivate ??= options.allowPrivate());
      const checks = await Promise.all(urls.map((url) => usableCrl(url, { certificateDer: der, issuerDer, allowPrivate: allowed, now, deadline, revocationPool: options.revocationPool })));
      const found = checks.find((check) => check.crlDer);
      if (found?.crlDer) return { crl: found.crlDer, issuer: issuerDer };
      return { subject: certificate.subject, reason: checks.map((check) => check.reason).join("; ") };
    }),
  );
  const result: OutsideRevocation = { crls: [], certificates: [], missing: [] };
  for (const outcome of outcomes) {
    if (!outcome) continue;
    if ("crl" in outcome) {
      result.crls.push(outcome.crl);
      result.certificates.push(outcome.issuer);
    } else result.missing.push(outcome);
  }
  return result;
}

function distributionUrls(certificate: x509.X509Certificate): string[] {
  const extension = certificate.getExtension(x509.CRLDistributionPointsExtension);
  const urls: string[] = [];
  for (const point of extension?.distributionPoints ?? []) {
    for (const name of point.distributionPoint?.fullName ?? []) {
      const uri = name.uniformResourceIdentifier;
      if (uri && /^https?:\/\//i.test(uri)) urls.push(uri);
    }
  }
  return urls.slice(0, 4);
}

/** The CRL at `url` when it is usable for the certificate, or why not. */
async function usableCrl(
  url: string,
  context: { certificateDer: Uint8Array; issuerDer: Uint8Array; allowPrivate: boolean; now: Date; deadline: number; revocationPool: TaskRunner<CertificateTasks> },
): Promise<{ crlDer?: Uint8Array; reason: string }> {
  const key = `${context.allowPrivate ? "private-allowed" : "public-only"} ${url}`;
  try {
    const cached = cachedCrl(key, context.now);
    const timeoutMs = Math.max(1, context.deadline - Date.now());
    const crlDer = cached ?? (await getPublicResource(url, { allowPrivate: context.allowPrivate, timeoutMs, maxBytes: MAX_CRL_BYTES }));
    const check: OutsideCrlCheck = await context.revocationPool.run("check-outside-crl", { crlDer, certificateDer: context.certificateDer, issuerDer: context.issuerDer, now: context.now.getTime() });
    if (!cached && check.authentic && check.nextUpdate !== undefined) remember(key, crlDer, check.nextUpdate);
    return check.usable ? { crlDer, reason: "" } : { reason: `${url}: ${check.reason}` };
  } catch (error) {
    return { reason: `${url}: ${(error as Error).message}` };
  }
}

function cache(): Cache {
  return processSingleton<Cache>(CACHE, () => ({ entries: new Map(), bytes: 0 }));
}

function cachedCrl(key: string, now: Date): Uint8Array | undefined {
  const entry = cache().entries.get(key);
  if (entry && entry.nextUpdate > now.getTime()) return entry.crlDer;
  if (entry) forget(key);
  return undefined;
}

function remember(key: string, crlDer: Uint8Array, nextUpdate: number): void {
  if (crlDer.byteLength > MAX_CACHED_BYTES) return;
  const store = cache();
  forget(key);
  // oldest first (a Map keeps insertion order) until the new CRL fits
  for (const oldest of store.entries.keys()) {
    if (store.bytes + crlDer.byteLength <= MAX_CACHED_BYTES) break;
    forget(oldest);
  }
  store.entries.set(key, { crlDer, nextUpdate });
  store.bytes += crlDer.byteLength;
}

function forget(key: string): void {
  const store = cache();
  const entry = store.entries.get(key);
  if (!entry) return;
  store.entries.delete(key);
  store.bytes -= entry.crlDer.byteLength;
}

/** What the cache holds now, for tests: keys (policy and URL), total bytes, and each CRL's fingerprint. */
export function outsideCrlCacheContents(): { keys: string[]; bytes: number; sha256: string[] } {
  const store = cache();
  return {
    keys: [...store.entries.keys()],
    bytes: store.bytes,
    sha256: [...store.entries.values()].map((entry) => createHash("sha256").update(entry.crlDer).digest("hex")),
  };
}

/** Empties the cache (tests). */
export function forgetOutsideCrls(): void {
  forgetProcessSingleton(CACHE);
}
