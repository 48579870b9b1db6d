import { createCertificate, type CertificateProfile } from "@/lib/pki/create-certificate";
import type { IssuedCertificate, TokenCertificate, TokenKeyMaker } from "@/lib/pki/issued-certificate";
import { oids } from "@/lib/pki/object-identifiers";
import { x509 } from "@/lib/pki/x509-provider";

export type PkiEnvironment = "quality" | "production";

export type PkiHierarchy<C = IssuedCertificate> = {
  root: C;
  issuing: C;
  tsa: C;
};

export type PkiHierarchyOptions = { environment: PkiEnvironment; crlBaseUrl: string; now?: Date };

const organization = "FirmaViva";
const day = 24 * 60 * 60 * 1000;
const year = 365 * day;

/** Quality CAs carry "(Calidad)" so a test certificate can never be mistaken for a production one. */
export function pkiCommonNames(environment: PkiEnvironment) {
  const suffix = environment === "quality" ? " (Calidad)" : "";
  return {
    root: `${organization} Root CA${suffix}`,
    issuing: `${organization} Issuing CA${suffix}`,
    tsa: `${organization} TSA${suffix}`,
  };
}

function caName(commonName: string): x509.JsonNameParams {
  return [{ C: ["PE"] }, { O: [organization] }, { CN: [commonName] }];
}

const caKeyUsage = x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign;
const signingKeyUsage = x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation;

/** Root CA -> issuing CA (pathLen 0) -> TSA certificate, all ECDSA P-256 / SHA-256; keys in the token when given a maker. */
export async function createPkiHierarchy(options: PkiHierarchyOptions): Promise<PkiHierarchy>;
export async function createPkiHierarchy(options: PkiHierarchyOptions, tokenKey: TokenKeyMaker): Promise<PkiHierarchy<TokenCertificate>>;
export async function createPkiHierarchy(options: PkiHierarchyOptions, tokenKey?: TokenKeyMaker): Promise<PkiHierarchy<IssuedCertificate | TokenCertificate>> {
  const create = (profile: CertificateProfile) => (tokenKey ? createCertificate(profile, tokenKey) : createCertificate(profile));
  const now = options.now ?? new Date();
  const names = pkiCommonNames(options.environment);
  // a little in the past so relying parties with a slow clock accept the fresh hierarchy
  const notBefore = new Date(now.getTime() - 60 * 60 * 1000);

  const root = await create({
    subject: caName(names.root),
    notBefore,
    notAfter: new Date(now.getTime() + 25 * year),
    extensions: [new x509.BasicConstraintsExtension(true, undefined, true), new x509.KeyUsagesExtension(caKeyUsage, true)],
  });

  const issuing = await create({
    subject: caName(names.issuing),
    issuer: root,
    crlBaseUrl: options.crlBaseUrl,
    notBefore,
    notAfter: new Date(now.getTime() + 15 * year),
    extensions: [new x509.BasicConstraintsExtension(true, 0, true), new x509.KeyUsagesExtension(caKeyUsage, true)],
  });

  const tsa = await create({
    subject: caName(names.tsa),
    issuer: issuing,
    crlBaseUrl: options.crlBaseUrl,
    notBefore,
    notAfter: new Date(now.getTime() + 10 * year),
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(signingKeyUsage, true),
      // RFC 3161 2.3: the TSA certificate has exactly one EKU, timeStamping, marked critical
      new x509.ExtendedKeyUsageExtension([oids.timeStampingEku], true),
    ],
  });

  return { root, issuing, tsa };
}
