import { readX509Certificate, x509 } from "@/lib/pki/x509-provider";

/**
 * True when the signer certificate chains, signature by signature, to one of `trustedCaDer`
 * (our root and issuing CA). Validity dates and revocation are not judged here.
 */
export async function checkCertificateChain(signerDer: Uint8Array, carriedDer: Uint8Array[], trustedCaDer: Uint8Array[]): Promise<boolean> {
  try {
    const trusted = trustedCaDer.map(readX509Certificate);
    const carried = carriedDer.flatMap((der) => {
      try {
        return [readX509Certificate(der)];
      } catch {
        return [];
      }
    });
    const builder = new x509.X509ChainBuilder({ certificates: [...trusted, ...carried] });
    const chain = await builder.build(readX509Certificate(signerDer));
    const top = chain[chain.length - 1];
    if (!top || !trusted.some((anchor) => anchor.equal(top))) return false;
    // the anchor is trusted as is; every link below it must verify with the next certificate's key
    for (let i = 0; i + 1 < chain.length; i++) {
      if (!(await chain[i].verify({ publicKey: chain[i + 1].publicKey, signatureOnly: true }))) return false;
    }
    return true;
  } catch {
    return false;
  }
}
