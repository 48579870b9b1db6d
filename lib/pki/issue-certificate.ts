import { type CertificateProfile, createCertificate } from "@/lib/pki/create-certificate";
import { PkiError } from "@/lib/pki/errors";
import type { CertificateWithKey, IssuedCertificate, TokenCertificate, TokenKeyMaker } from "@/lib/pki/issued-certificate";
import { oids } from "@/lib/pki/object-identifiers";
import { x509 } from "@/lib/pki/x509-provider";
import { readCertificate } from "@/lib/pki/check-pki-signatures";

const minute = 60 * 1000;
const day = 24 * 60 * minute;
// relying parties whose clock runs a little behind must already see the certificate as valid
const clockSkew = minute;

/** person_id_type of the stamp API: national id (DNI), foreigner card (CE), passport (PAS). */
export type PersonIdType = "DNI" | "CE" | "PAS";

export type PersonIdentity = {
  givenNames: string;
  lastNames: string;
  /** ISO 3166 alpha-3, e.g. PER. */
  nationality: string;
  idType: PersonIdType;
  idNumber: string;
};

const alpha2ByNationality: Record<string, string> = { PER: "PE", CHL: "CL" };

/** ETSI EN 319 412-1 style semantic identifier: IDCPER-12345678, PASPER-1234567890. */
export function personSerialNumber(identity: Pick<PersonIdentity, "idType" | "nationality" | "idNumber">): string {
  const prefix = identity.idType === "PAS" ? "PAS" : "IDC";
  return `${prefix}${identity.nationality}-${identity.idNumber}`;
}

/** `organization`: who vouched for the identity (holder certificates), as O of the subject. */
function personSubject(identity: PersonIdentity, organization?: string): x509.JsonNameParams {
  const givenNames = identity.givenNames.trim();
  const lastNames = identity.lastNames.trim();
  if (!givenNames || !lastNames) throw new PkiError("INVALID_INPUT", "givenNames and lastNames are required");
  if (!/^[A-Z]{3}$/.test(identity.nationality)) throw new PkiError("INVALID_INPUT", "nationality must be 3 capital letters");
  // serialNumber is a PrintableString: digits, letters and hyphens cover every supported id format
  if (!/^[A-Za-z0-9-]{1,40}$/.test(identity.idNumber)) throw new PkiError("INVALID_INPUT", "idNumber has invalid characters");
  const country = alpha2ByNationality[identity.nationality];
  const vouchedBy = organization?.trim();
  if (organization !== undefined && (!vouchedBy || vouchedBy.length > 64)) throw new PkiError("INVALID_INPUT", "organization must be 1 to 64 characters");
  return [
    ...(country ? [{ C: [country] }] : []),
    ...(vouchedBy ? [{ O: [vouchedBy] }] : []),
    { SN: [lastNames] },
    { G: [givenNames] },
    { [oids.subjectSerialNumber]: [{ printableString: personSerialNumber(identity) }] },
    { CN: [`${givenNames} ${lastNames}`] },
  ];
}

let endEntity: readonly x509.Extension[] | undefined;

/** The same three for every end-entity certificate: encoded once (a certificate only reads their bytes). */
function endEntityExtensions(): x509.Extension[] {
  endEntity ??= [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
    new x509.ExtendedKeyUsageExtension([oids.emailProtectionEku, oids.documentSigningEku], false),
  ];
  return [...endEntity];
}

/** A certificate must not outlive its issuer; path validation would reject the tail anyway. */
function clampToIssuer(issuing: CertificateWithKey, notAfter: Date): Date {
  const issuerNotAfter = readCertificate(issuing.certificateDer).notAfter;
  return notAfter > issuerNotAfter ? issuerNotAfter : notAfter;
}

function requirePositiveInteger(value: number, name: string): void {
  if (!Number.isInteger(value) || value <= 0) throw new PkiError("INVALID_INPUT", `${name} must be a positive integer`);
}

type AgentCertificateOptions = { organizationName: string; domain: string; crlBaseUrl: string; validityDays?: number; now?: Date };

/** Long-lived organization certificate for the "agente" (automated agent) signature type; its key in the token when given. */
export async function issueAgentCertificate(issuing: CertificateWithKey, options: AgentCertificateOptions): Promise<IssuedCertificate>;
export async function issueAgentCertificate(issuing: CertificateWithKey, options: AgentCertificateOptions, tokenKey: TokenKeyMaker): Promise<TokenCertificate>;
export async function issueAgentCertificate(
  issuing: CertificateWithKey,
  options: AgentCertificateOptions,
  tokenKey?: TokenKeyMaker,
): Promise<IssuedCertificate | TokenCertificate> {
  const organizationName = options.organizationName.trim();
  if (!organizationName) throw new PkiError("INVALID_INPUT", "organizationName is required");
  const validityDays = options.validityDays ?? 3 * 365;
  requirePositiveInteger(validityDays, "validityDays");
  const now = options.now ?? new Date();
  const profile: CertificateProfile = {
    subject: [{ O: [organizationName] }, { CN: [organizationName] }],
    issuer: issuing,
    crlBaseUrl: options.crlBaseUrl,
    notBefore: new Date(now.getTime() - clockSkew),
    notAfter: clampToIssuer(issuing, new Date(now.getTime() + validityDays * day)),
    extensions: [...endEntityExtensions(), new x509.SubjectAlternativeNameExtension([{ type: "dns", value: options.domain }])],
  };
  return tokenKey ? createCertificate(profile, tokenKey) : createCertificate(profile);
}

/** Certificate for one signing session of a person; a fresh key every time, used once and dropped. */
export async function issueSignerCertificate(
  issuing: CertificateWithKey,
  options: PersonIdentity & {
    validityMinutes: number;
    crlBaseUrl: string;
    now?: Date;
    /** certificatePolicies (e.g. the signer's identity level, lib/identity-assurance). */
    policyOids?: string[];
    /** The organization that vouched for this person's identity (O= in the subject, issue 36). */
    organization?: string;
  },
): Promise<IssuedCertificate> {
  requirePositiveInteger(options.validityMinutes, "validityMinutes");
  for (const oid of options.policyOids ?? []) if (!/^\d+(\.\d+)+$/.test(oid)) throw new PkiError("INVALID_INPUT", "policyOids must be dotted OIDs");
  const now = options.now ?? new Date();
  return createCertificate({
    subject: personSubject(options, options.organization),
    issuer: issuing,
    crlBaseUrl: options.crlBaseUrl,
    notBefore: new Date(now.getTime() - clockSkew),
    notAfter: clampToIssuer(issuing, new Date(now.getTime() + options.validityMinutes * minute)),
    extensions: [...endEntityExtensions(), ...(options.policyOids?.length ? [new x509.CertificatePolicyExtension(options.policyOids, false)] : [])],
  });
}

/** Long-lived personal certificate held by the service for the "digital" signature type. */
export async function issueHolderCertificate(
  issuing: CertificateWithKey,
  options: PersonIdentity & { organization: string; validityDays: number; crlBaseUrl: string; now?: Date },
): Promise<IssuedCertificate> {
  requirePositiveInteger(options.validityDays, "validityDays");
  const now = options.now ?? new Date();
  return createCertificate({
    // the organization that asserted this name and ID number is part of what the platform CA certifies
    subject: personSubject(options, options.organization),
    issuer: issuing,
    crlBaseUrl: options.crlBaseUrl,
    notBefore: new Date(now.getTime() - clockSkew),
    notAfter: clampToIssuer(issuing, new Date(now.getTime() + options.validityDays * day)),
    extensions: endEntityExtensions(),
  });
}
