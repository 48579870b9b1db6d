import { createHash } from "node:crypto";
import { PDFName, PDFRef } from "pdf-lib";
import { PdfError, invalidPdf } from "@/lib/pdf/errors";
import { asPdfError, openLazyPdf, type LazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { readFormState } from "@/lib/pdf/read-form-state";
import { checkCertificateChain } from "./check-certificate-chain";
import { classifyRevisionChanges, readFieldLocks, type ChangePermission, type FieldLock, type NewSignatures } from "./classify-revision-changes";
import { findUnaccountedBytes } from "./find-unaccounted-bytes";
import { readDssMaterial } from "./read-dss-material";
import { readRevisions, type Revision } from "./read-revisions";
import type { SignatureReport, SignatureStatus, VerificationReport } from "./verification-report";
import { verifyOneSignature, type Anchored, type SignatureCheck } from "./verify-one-signature";

export type { IntegrityResult, SignatureReport, VerificationReport } from "./verification-report";

const MAX_SIGNATURES = 200;
const STATUS_ORDER: SignatureStatus[] = ["valid", "untrusted", "changed", "invalid"];

/**
 * Reports every signature and document time-stamp of an uploaded PDF. Each is checked for structure
 * (the published Universal Signature Forgery and Signature Wrapping classes), cryptography (one CMS
 * reader), chain and revocation against `trustAnchorsDer` at the time-stamped time, and every later
 * revision is classified as allowed (DSS, time-stamps, signatures, what DocMDP permits) or as a change
 * after signing (Incremental Saving and Shadow attacks). Refuses unreadable input with a PdfError.
 */
export async function verifyPdfSignatures(bytes: Uint8Array, trustAnchorsDer: Uint8Array[]): Promise<VerificationReport> {
  let pdf: LazyPdf;
  let values: ReturnType<typeof readFormState>["signatureValues"];
  let revisions: Revision[];
  try {
    pdf = openLazyPdf(bytes);
    if (pdf.encrypted) throw new PdfError("ENCRYPTED_PDF", undefined, "El PDF está cifrado; no se pueden verificar sus firmas.");
    const catalogRef = pdf.trailer.get(PDFName.of("Root"));
    const catalog = catalogRef instanceof PDFRef ? pdf.lookupDict(catalogRef) : undefined;
    if (!catalog) throw invalidPdf("trailer /Root is not a catalog");
    values = readFormState(pdf, catalog).signatureValues.slice(0, MAX_SIGNATURES);
    revisions = readRevisions(bytes, pdf);
  } catch (error) {
    throw asPdfError(error);
  }
  const dss = readDssMaterial(pdf);
  const material: Anchored = { ...dss, anchorsDer: trustAnchorsDer };

  const checks: SignatureCheck[] = [];
  for (const value of values) {
    checks.push(await verifyOneSignature(bytes, value, revisions, pdf, material));
  }
  // reported in form order, which is the order fields were added (a forged range cannot reorder them)

  for (const check of checks) judgeLaterRevisions(bytes, pdf, revisions, check, checks);
  for (const check of checks) check.report.level = await padesLevel(check, checks, revisions, material);

  const signatures = checks.map((check) => check.report);
  for (const report of signatures) report.status = statusOf(report);
  return {
    fileSize: bytes.length,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    verdict: signatures.length === 0 ? "unsigned" : signatures.reduce<SignatureStatus>((worst, s) => (STATUS_ORDER.indexOf(s.status) > STATUS_ORDER.indexOf(worst) ? s.status : worst), "valid"),
    revisions: revisions.length,
    signatures,
  };
}

/** Certificates and CRLs carried by the CMS count as validation material for its own chain. */
function withCms(material: Anchored, check: SignatureCheck): Anchored {
  if (!check.cms) return material;
  return { ...material, certificatesDer: [...check.cms.certificatesDer, ...material.certificatesDer], crlsDer: [...check.cms.crlsDer, ...material.crlsDer] };
}

function statusOf(report: SignatureReport): SignatureStatus {
  if (report.integrity !== "intact" || report.chain.status === "invalid" || report.chain.status === "unchecked") return "invalid";
  if (report.changesAfter.length > 0) return "changed";
  if (!report.trusted) return "untrusted";
  return "valid";
}

/** Classifies every revision after the signature's own, and any bytes no revision accounts for. */
function judgeLaterRevisions(bytes: Uint8Array, pdf: LazyPdf, revisions: Revision[], check: SignatureCheck, all: SignatureCheck[]): void {
  const { placement, report } = check;
  if (!placement.ok) return;
  const signedRevision = placement.revision;
  let permission: ChangePermission = "signatures";
  let locks: FieldLock[] = [];
  try {
    const state = signedRevision.state();
    const catalog = state.lookupDict(state.trailer.get(PDFName.of("Root")));
    const docMdp = catalog ? readFormState(state, catalog).docMdpPermission : undefined;
    permission = docMdp === 1 ? "none" : docMdp === 2 ? "form" : docMdp === 3 ? "annotations" : "signatures";
    locks = readFieldLocks(state, check.dict, check.field);
  } catch {
    report.changesAfter.push({ revision: signedRevision.index, kind: "object-changed", allowed: false, detail: "the signed revision cannot be read on its own" });
    return;
  }
  const later = revisions.slice(signedRevision.index + 1);
  for (const revision of later) {
    if (revision.sectionOffset < signedRevision.end) {
      report.changesAfter.push({ revision: revision.index, kind: "xref-not-chained", allowed: false, detail: "a later cross-reference section lies inside the signed bytes" });
      continue;
    }
    const added: NewSignatures = new Map();
    for (const other of all) {
      if (other.placement.ok && other.placement.revision.index === revision.index && other.report.revision !== undefined) {
        const ref = other.ref?.objectNumber;
        if (ref !== undefined) added.set(ref, { kind: other.report.kind, intact: other.report.integrity === "intact" && other.report.chain.status !== "invalid" });
      }
    }
    try {
      for (const change of classifyRevisionChanges(revisions[revision.index - 1].state(), revision, added, permission, locks)) {
        (change.allowed ? report.allowedChangesAfter : report.changesAfter).push(change);
      }
    } catch (error) {
      report.changesAfter.push({ revision: revision.index, kind: "object-changed", allowed: false, detail: `the revision cannot be read: ${(error as Error).message}` });
    }
  }
  const stray = findUnaccountedBytes(bytes, signedRevision.end, later, pdf);
  if (stray) report.changesAfter.push({ revision: later.at(-1)?.index ?? signedRevision.index, kind: "unaccounted-bytes", allowed: false, detail: `${stray.reason} (offset ${stray.offset})` });
}

/**
 * B-B: a CAdES signature with its signing-certificate binding; B-T: plus a valid signature
 * time-stamp; B-LT: plus a later DSS whose data covers the signer's and the TSA's chains; B-LTA: plus
 * a valid document time-stamp in a revision after that DSS.
 */
async function padesLevel(check: SignatureCheck, all: SignatureCheck[], revisions: Revision[], anchors: Anchored): Promise<SignatureReport["level"]> {
  const { report, cms, signerCertificateDer, placement } = check;
  if (report.kind !== "signature" || report.integrity !== "intact" || !cms || !signerCertificateDer || !placement.ok) return undefined;
  if (report.subFilter !== "ETSI.CAdES.detached" || cms.certificateBindings.length === 0 || cms.signingTime) return undefined;
  if (!report.timeStamp?.valid) return "B-B";
  const tsaCertificate = check.timeStampCertificateDer;
  for (const revision of revisions.slice(placement.revision.index + 1)) {
    const material = withCms({ ...readDssMaterial(revision.state()), anchorsDer: anchors.anchorsDer }, check);
    if (material.crlsDer.length === 0 && material.ocspsDer.length === 0) continue;
    const signer = await checkCertificateChain(signerCertificateDer, material, check.validationTime, "signing");
    const tsa = tsaCertificate ? await checkCertificateChain(tsaCertificate, material, check.validationTime, "time-stamping") : signer;
    if (signer.revocation !== "good" || tsa.revocation !== "good") continue;
    const archived = all.some((other) => other.report.kind === "document-timestamp" && other.report.integrity === "intact" && other.report.chain.status !== "invalid" && (other.report.revision ?? -1) > revision.index);
    return archived ? "B-LTA" : "B-LT";
  }
  return "B-T";
}
