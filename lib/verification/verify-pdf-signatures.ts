import { createHash } from "node:crypto";
import { PDFName, PDFRef } from "pdf-lib";
import { PdfError, invalidPdf } from "@/lib/pdf/errors";
import { asPdfError, openLazyPdf, type LazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { readFormState } from "@/lib/pdf/read-form-state";
import { createRevisionJudge } from "./judge-later-revisions";
import { judgeRenderedPages } from "./judge-rendered-pages";
import { createLevelJudge } from "./pades-level";
import { readDssMaterial } from "./read-dss-material";
import { readRevisions, type Revision } from "./read-revisions";
import type { SignatureReport, SignatureStatus, VerificationReport } from "./verification-report";
import { verifyOneSignature, type Anchored, type SignatureCheck } from "./verify-one-signature";

export type { IntegrityResult, SignatureReport, VerificationReport } from "./verification-report";

const MAX_SIGNATURES = 200;
const STATUS_ORDER: SignatureStatus[] = ["valid", "untrusted", "unverifiable", "changed", "invalid"];

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
    pdf = openLazyPdf(bytes, undefined, { tolerant: true });
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

  try {
    const judge = createRevisionJudge(bytes, pdf, revisions, checks);
    for (const check of checks) judge(check);
  } catch (error) {
    throw asPdfError(error);
  }
  // what the pages show, for the changes the object rules leave to it
  await judgeRenderedPages(bytes, pdf, revisions, checks);
  const levelOf = createLevelJudge(revisions, checks, trustAnchorsDer);
  for (const check of checks) check.report.level = await levelOf(check);

  const signatures = checks.map((check) => check.report);
  for (const report of signatures) report.status = statusOf(report);
  return {
    fileSize: bytes.length,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    verdict: signatures.length === 0 ? "unsigned" : signatures.reduce<SignatureStatus>((worst, s) => (STATUS_ORDER.indexOf(s.status) > STATUS_ORDER.indexOf(worst) ? s.status : worst), "valid"),
    revisions: revisions.length,
    findings: [...pdf.repairs],
    signatures,
  };
}

function statusOf(report: SignatureReport): SignatureStatus {
  // what we cannot check is not a forgery; a change after it is still reported as such
  if (report.integrity === "unsupported") return report.changesAfter.length > 0 ? "changed" : "unverifiable";
  if (report.integrity !== "intact" || report.chain.status === "invalid" || report.chain.status === "unchecked") return "invalid";
  if (report.changesAfter.length > 0) return "changed";
  if (!report.trusted) return "untrusted";
  return "valid";
}
