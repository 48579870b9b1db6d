import { getPublicResource } from "@/lib/callbacks/get-public-resource";
import { readX509Certificate, x509 } from "@/lib/pki/x509-provider";

const TIMEOUT_MS = 10_000;
const MAX_CRL_BYTES = 10 * 1024 * 1024;
const MAX_CACHED = 64;
const CACHE = Symbol.for("firmaviva.outside-crls");
type Cached = { crlDer: Uint8Array; nextUpdate: number };
type Holder = { [CACHE]?: Map<string, Cached> };

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
 * callbacks' address guard, a timeout and a size cap, and cached until its nextUpdate. A CRL is used
 * only when its issuer's certificate (from the chain or TRUST_ANCHORS_FILE) verifies it, it is
 * current, and it was issued at or after the certificate's notBefore (the timing rule).
 */
export async function fetchOutsideRevocation(
  certificatesDer: Uint8Array[],
  options: { issuersDer: Uint8Array[]; isPlatformIssued: (certificate: x509.X509Certificate) => boolean; allowPrivate: boolean; now?: Date },
): Promise<OutsideRevocation> {
  const now = options.now ?? new Date();
  const pool = [...certificatesDer, ...options.issuersDer].map((der) => readX509Certificate(der));
  const result: OutsideRevocation = { crls: [], certificates: [], missing: [] };
  for (const certificate of certificatesDer.map((der) => readX509Certificate(der))) {
    if (certificate.subject === certificate.issuer || options.isPlatformIssued(certificate)) continue;
    const issuer = pool.find((candidate) => candidate.subject === certificate.issuer && candidate !== certificate);
    if (!issuer) {
      result.missing.push({ subject: certificate.subject, reason: "issuer certificate unknown" });
      continue;
    }
    const urls = distributionUrls(certificate);
    let found: Uint8Array | null = null;
    let reason = urls.length === 0 ? "no http CRL distribution point" : "";
    for (const url of urls) {
      try {
        const crlDer = await cachedCrl(url, options.allowPrivate, now);
        const crl = new x509.X509Crl(new Uint8Array(crlDer));
        if (crl.issuer !== certificate.issuer) throw new Error("CRL of another issuer");
        if (!(await crl.verify({ publicKey: issuer.publicKey }).catch(() => false))) throw new Error("CRL signature does not verify");
        if (crl.thisUpdate < certificate.notBefore) throw new Error("CRL issued before the certificate");
        if (crl.thisUpdate > now || (crl.nextUpdate && crl.nextUpdate < now)) throw new Error("CRL not current");
        if (crl.findRevoked(certificate)) throw new Error("certificate revoked");
        found = crlDer;
        break;
      } catch (error) {
        reason = `${url}: ${(error as Error).message}`;
      }
    }
    if (!found) {
      result.missing.push({ subject: certificate.subject, reason });
      continue;
    }
    result.crls.push(found);
    result.certificates.push(new Uint8Array(issuer.rawData));
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

async function cachedCrl(url: string, allowPrivate: boolean, now: Date): Promise<Uint8Array> {
  const holder = globalThis as Holder;
  const cache = (holder[CACHE] ??= new Map());
  const cached = cache.get(url);
  if (cached && cached.nextUpdate > now.getTime()) return cached.crlDer;
  const crlDer = await getPublicResource(url, { allowPrivate, timeoutMs: TIMEOUT_MS, maxBytes: MAX_CRL_BYTES });
  const nextUpdate = new x509.X509Crl(new Uint8Array(crlDer)).nextUpdate;
  if (nextUpdate) {
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
    cache.set(url, { crlDer, nextUpdate: nextUpdate.getTime() });
  }
  return crlDer;
}
