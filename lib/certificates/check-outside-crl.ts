import { readX509Certificate, x509 } from "@/lib/pki/x509-provider";

export type OutsideCrlCheck = {
  /** The CRL names the certificate's issuer and that issuer's key signed it: safe to cache for this policy. */
  authentic: boolean;
  /** Usable for this certificate now: authentic, current, issued after the certificate, not listing it. */
  usable: boolean;
  reason?: string;
  nextUpdate?: number;
};

/**
 * Judges a fetched CRL for one certificate. Runs in a worker: a CRL may be 10 MB, and parsing it
 * plus finding a serial in it is CPU the event loop must not spend.
 */
export async function checkOutsideCrl(input: { crlDer: Uint8Array; certificateDer: Uint8Array; issuerDer: Uint8Array; now: number }): Promise<OutsideCrlCheck> {
  const certificate = readX509Certificate(input.certificateDer);
  const issuer = readX509Certificate(input.issuerDer);
  let crl: x509.X509Crl;
  try {
    crl = new x509.X509Crl(new Uint8Array(input.crlDer));
  } catch {
    return { authentic: false, usable: false, reason: "not a CRL" };
  }
  if (crl.issuer !== certificate.issuer || crl.issuer !== issuer.subject) return { authentic: false, usable: false, reason: "CRL of another issuer" };
  if (!(await crl.verify({ publicKey: issuer.publicKey }).catch(() => false))) return { authentic: false, usable: false, reason: "CRL signature does not verify" };
  const nextUpdate = crl.nextUpdate?.getTime();
  const refuse = (reason: string): OutsideCrlCheck => ({ authentic: true, usable: false, reason, nextUpdate });
  if (crl.thisUpdate < certificate.notBefore) return refuse("CRL issued before the certificate");
  if (crl.thisUpdate.getTime() > input.now || (nextUpdate !== undefined && nextUpdate < input.now)) return refuse("CRL not current");
  if (crl.findRevoked(certificate)) return refuse("certificate revoked");
  return { authentic: true, usable: true, nextUpdate };
}
