import { createHash } from "node:crypto";
import { PDFHexString, PDFName, PDFString, type PDFDict, type PDFObject, type PDFRef } from "pdf-lib";
import type { LazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { checkCertificateChain, type ChainResult } from "./check-certificate-chain";
import { checkSignaturePlacement, type Placement } from "./check-signature-placement";
import type { ValidationMaterial } from "./find-revocation-status";
import { readCertificate } from "@/lib/pki/check-pki-signatures";
import { readSignedData, type SignedDataReading } from "@/lib/pki/read-signed-data";
import type { Revision } from "./read-revisions";
import type { SignatureReport } from "./verification-report";
import { digestNameOf, hashOfSignerInfo, weaknessOf } from "@/lib/pki/signature-algorithms";
import { readIdentityLevel } from "@/lib/identity-assurance/read-identity-level";
import { digestOf, findSignerCertificate, SignerInfoError, verifySignerInfo } from "./verify-signer-info";
import { commonName, organizationName, verifyTimeStampToken } from "./verify-time-stamp-token";

export type Anchored = ValidationMaterial & { anchorsDer: Uint8Array[] };

/** What the first pass learns of one signature; the second pass judges later revisions with it. */
export type SignatureCheck = {
  report: SignatureReport;
  placement: Placement;
  cms?: SignedDataReading;
  signerCertificateDer?: Uint8Array;
  timeStampCertificateDer?: Uint8Array;
  ref?: PDFRef;
  dict: PDFDict;
  field?: PDFDict;
  /** Time the chain was judged at. */
  validationTime: Date;
};

/**
 * Structure, cryptography and chain of one signature or document time-stamp: placement of the byte
 * ranges (USF, wrapping), the CMS attributes and signature value, the signature time-stamp, and the
 * certificate path at the time-stamped (else claimed) time.
 */
export async function verifyOneSignature(
  bytes: Uint8Array,
  value: { dict: PDFDict; ref?: PDFRef; fieldName: string; field?: PDFDict },
  revisions: Revision[],
  finalPdf: LazyPdf,
  material: Anchored,
): Promise<SignatureCheck> {
  const { dict } = value;
  const subFilter = dict.get(PDFName.of("SubFilter"));
  const kind = subFilter === PDFName.of("ETSI.RFC3161") || dict.get(PDFName.of("Type")) === PDFName.of("DocTimeStamp") ? "document-timestamp" : "signature";
  const claimed = readPdfDate(dict.get(PDFName.of("M")));
  const placement = checkSignaturePlacement(bytes, dict, value.ref, revisions, finalPdf);
  const end = placement.range?.end;
  const report: SignatureReport = {
    kind,
    fieldName: value.fieldName,
    subFilter: subFilter instanceof PDFName ? subFilter.decodeText() : undefined,
    signingTime: claimed ? { at: claimed.toISOString(), source: "pdf" } : undefined,
    integrity: "intact",
    trusted: false,
    modifiedAfter: end === undefined ? true : hasBytesAfter(bytes, end),
    coversWholeDocument: false,
    status: "invalid",
    revision: placement.ok ? placement.revision.index : undefined,
    chain: { status: "unchecked", revocation: "unknown" },
    changesAfter: [],
    allowedChangesAfter: [],
  };
  const check: SignatureCheck = { report, placement, ref: value.ref, dict, field: value.field, validationTime: claimed ?? new Date() };
  const fail = (integrity: SignatureReport["integrity"], detail: string) => Object.assign(report, { integrity, detail }) && check;

  const contents = dict.get(PDFName.of("Contents"));
  const contentBytes = contents instanceof PDFHexString || contents instanceof PDFString ? contents.asBytes() : undefined;
  if (!contentBytes || contentBytes.every((byte) => byte === 0)) return fail("unreadable", "/Contents is missing, empty or zero");
  try {
    check.cms = readSignedData(contentBytes, { readCertificate });
  } catch (error) {
    return fail("unreadable", `the /Contents is not a readable CMS: ${(error as Error).message}`);
  }
  const cms = check.cms;
  // certificates and CRLs the CMS carries are validation material for its own chain
  // and so is what Adobe's signers archive in the signed attributes (adbe-revocationInfoArchival)
  material = { ...material, certificatesDer: [...cms.certificatesDer, ...material.certificatesDer], crlsDer: [...cms.crlsDer, ...cms.archivedCrlsDer, ...material.crlsDer], ocspsDer: [...cms.archivedOcspsDer, ...material.ocspsDer] };
  if (!placement.ok) return fail("ranges-invalid", placement.reason);
  report.coversWholeDocument = !report.modifiedAfter;
  const { range } = placement;
  const signed = Buffer.concat([bytes.subarray(0, range.length1), bytes.subarray(range.start2, range.end)]);

  if (kind === "document-timestamp") {
    let stamp;
    try {
      stamp = await verifyTimeStampToken(cms, signed, material);
    } catch (error) {
      return fail("unreadable", `the document time-stamp token is unreadable: ${(error as Error).message}`);
    }
    report.signer = stamp.authority;
    report.signingTime = { at: stamp.at.toISOString(), source: "timestamp" };
    check.validationTime = stamp.at;
    report.chain = { status: stamp.valid ? (stamp.trusted ? "trusted" : "untrusted") : "invalid", reason: stamp.detail, revocation: stamp.revocation, validatedAt: { at: stamp.at.toISOString(), source: "timestamp" } };
    report.trusted = stamp.valid && stamp.trusted;
    if (!stamp.matchesImprint) return fail("digest-mismatch", stamp.detail ?? "the time-stamp imprint does not match the byte ranges");
    if (!stamp.valid) return fail("signature-invalid", stamp.detail ?? "the document time-stamp does not verify");
    return check;
  }

  // several SignerInfos (a co-signature, a leftover of the signing tool): the first that verifies speaks for the signature
  const candidates = [...cms.certificatesDer, ...material.certificatesDer];
  const named = findSignerCertificate(cms, candidates);
  if (named) report.signer = commonName(named);
  let outcome = checkSignerInfo(cms, signed, candidates, report.subFilter);
  for (let index = 1; index < cms.signerCount && !outcome.ok; index++) {
    let other: SignedDataReading;
    try {
      other = readSignedData(contentBytes, { signerIndex: index, readCertificate });
    } catch {
      continue;
    }
    const next = checkSignerInfo(other, signed, candidates, report.subFilter);
    if (next.ok) {
      outcome = next;
      check.cms = other;
    }
  }
  if (!outcome.ok) return fail(outcome.reason, outcome.detail);
  check.signerCertificateDer = outcome.certificate;
  report.signerCertificateSha256 = createHash("sha256").update(outcome.certificate).digest("hex");
  report.signer = commonName(outcome.certificate);
  const organization = organizationName(outcome.certificate);
  if (organization) report.signerOrganization = organization;
  if (outcome.weak.length) report.weakAlgorithms = outcome.weak;
  return finishSignature(check, material, claimed);
}

type SignerInfoOutcome =
  | { ok: true; certificate: Uint8Array; weak: string[] }
  | { ok: false; reason: "digest-mismatch" | "signature-invalid" | "unsupported"; detail: string };

/** Content binding, attributes and signature value of one SignerInfo over the signed ranges. */
function checkSignerInfo(cms: SignedDataReading, signed: Uint8Array, candidates: Uint8Array[], subFilter: string | undefined): SignerInfoOutcome {
  const certificate = findSignerCertificate(cms, candidates);
  try {
    let content: Uint8Array = signed;
    if (cms.encapsulatedContent) {
      // adbe.pkcs7.sha1 signs the SHA-1 of the ranges, carried as eContent; an enveloping CMS carries the ranges themselves
      const enveloped = Buffer.from(cms.encapsulatedContent).equals(Buffer.from(signed));
      if (!enveloped && !digestOf("1.3.14.3.2.26", signed).equals(Buffer.from(cms.encapsulatedContent))) throw new SignerInfoError("digest-mismatch", "the encapsulated content is neither the byte ranges nor their SHA-1 digest");
      content = cms.encapsulatedContent;
    }
    if (!certificate) throw new SignerInfoError("signature-invalid", "the signer certificate is neither in the CMS nor in the DSS");
    verifySignerInfo(cms, content, certificate, { requireBinding: subFilter === "ETSI.CAdES.detached" });
    const weak = [digestNameOf(cms.digestAlgorithmOid), cms.encapsulatedContent && content !== signed ? "sha1" : undefined, hashOfSignerInfo(cms.signatureAlgorithmOid, cms.digestAlgorithmOid)].flatMap((name) => (name && weaknessOf(name) ? [weaknessOf(name)!] : []));
    return { ok: true, certificate, weak: [...new Set(weak)] };
  } catch (error) {
    if (error instanceof SignerInfoError) return { ok: false, reason: error.reason, detail: error.message };
    return { ok: false, reason: "signature-invalid", detail: "the signature does not verify" };
  }
}

/** Signature time-stamps and the certificate path of a signature whose value verified. */
async function finishSignature(check: SignatureCheck, material: Anchored, claimed: Date | undefined): Promise<SignatureCheck> {
  const { report } = check;
  const cms = check.cms!;
  const certificate = check.signerCertificateDer!;
  const fail = (integrity: SignatureReport["integrity"], detail: string) => Object.assign(report, { integrity, detail }) && check;
  if (cms.signingTime) report.signingTime = { at: cms.signingTime.toISOString(), source: "cms" };

  let validatedAt: { at: Date; source: "timestamp" | "claimed" | "current" } = claimedTime(cms, claimed);
  for (const index of cms.timeStampTokensDer.keys()) {
    try {
      const stamp = await verifyTimeStampToken({ cms, index }, cms.signatureValue, material);
      if (index === 0) {
        report.timeStamp = { at: stamp.at.toISOString(), matchesSignature: stamp.matchesImprint, valid: stamp.valid, trusted: stamp.trusted, authority: stamp.authority, revocation: stamp.revocation, detail: stamp.detail };
        check.timeStampCertificateDer = stamp.certificateDer;
        // only a time-stamp from a TSA we trust proves when the signature existed
        if (stamp.valid && stamp.trusted) validatedAt = { at: stamp.at, source: "timestamp" };
      }
      if (!stamp.valid) return fail("signature-invalid", `signature time-stamp: ${stamp.detail ?? "does not verify"}`);
    } catch (error) {
      return fail("signature-invalid", `signature time-stamp unreadable: ${(error as Error).message}`);
    }
  }
  check.validationTime = validatedAt.at;
  // a claimed time could be back-dated to before a revocation: without proof, revocation is judged now
  const chain: ChainResult = await checkCertificateChain(certificate, material, validatedAt.at, "signing", validatedAt.source === "timestamp" ? validatedAt.at : new Date());
  report.chain = { status: chain.status, reason: chain.reason, revocation: chain.revocation, validatedAt: { at: validatedAt.at.toISOString(), source: validatedAt.source } };
  report.trusted = chain.status === "trusted";
  // the level our CA wrote into the signer certificate; an untrusted certificate's claim is not repeated
  const identityLevel = report.trusted ? readIdentityLevel(certificate) : undefined;
  if (identityLevel) report.identityLevel = identityLevel;
  return check;
}

function claimedTime(cms: SignedDataReading, claimed: Date | undefined): { at: Date; source: "claimed" | "current" } {
  const at = cms.signingTime ?? claimed;
  return at ? { at, source: "claimed" } : { at: new Date(), source: "current" };
}

/** Anything but whitespace after the signed revision means a later incremental update. */
export function hasBytesAfter(bytes: Uint8Array, end: number): boolean {
  for (let i = end; i < bytes.length; i++) if (![0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20].includes(bytes[i])) return true;
  return false;
}

/** PDF date "D:YYYYMMDDHHmmSSOHH'mm'" (ISO 32000 7.9.4); undefined when absent or malformed. */
function readPdfDate(obj: PDFObject | undefined): Date | undefined {
  if (!(obj instanceof PDFString || obj instanceof PDFHexString)) return undefined;
  const match = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz+-])(?:(\d{2})'?(\d{2})?'?)?)?/.exec(obj.decodeText().trim());
  if (!match) return undefined;
  const [, y, mo = "01", d = "01", h = "00", mi = "00", s = "00", sign, oh = "00", om = "00"] = match;
  const offset = sign === "+" || sign === "-" ? `${sign}${oh}:${om}` : "Z";
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
