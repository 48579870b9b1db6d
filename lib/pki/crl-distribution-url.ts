/** "FirmaViva Root CA (Calidad)" -> "firmaviva-root-ca-calidad": the file name a CRL is published under. */
export function crlSlug(issuerCommonName: string): string {
  return issuerCommonName
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** URL of the CRL published by the issuer with this common name; certificates it issues point here. */
export function crlDistributionUrl(crlBaseUrl: string, issuerCommonName: string): string {
  return `${crlBaseUrl.replace(/\/+$/, "")}/${crlSlug(issuerCommonName)}.crl`;
}
