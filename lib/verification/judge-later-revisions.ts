import { PDFName } from "pdf-lib";
import { tooComplex } from "@/lib/pdf/errors";
import type { LazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { readFormState } from "@/lib/pdf/read-form-state";
import { classifyRevisionChanges, type Change, type ChangePermission, type FieldLock, type NewSignatures } from "./classify-revision-changes";
import { readFieldLocks } from "./read-field-locks";
import { walkBudgetPerFile } from "./find-dangling-references";
import { scanAppendedBytes, type AppendedScan } from "./find-unaccounted-bytes";
import type { Revision } from "./read-revisions";
import type { SignatureCheck } from "./verify-one-signature";

// Objects compared across all revisions and signatures before the file is refused as too complex.
const MAX_COMPARED_OBJECTS = 500_000;

/**
 * Judges, for each signature, every revision after its own. A revision is classified once per
 * permission (most files have one), and the bytes after the earliest signature are walked once.
 */
export function createRevisionJudge(bytes: Uint8Array, pdf: LazyPdf, revisions: Revision[], checks: SignatureCheck[]) {
  const classified = new Map<string, Change[]>();
  let compared = 0;
  const walkBudget = walkBudgetPerFile();
  let scan: AppendedScan | undefined;
  const earliestEnd = Math.min(...checks.flatMap((check) => (check.placement.ok ? [check.placement.revision.end] : [])));

  const addedIn = (revision: Revision): NewSignatures => {
    const added: NewSignatures = new Map();
    for (const other of checks) {
      if (!other.placement.ok || other.placement.revision.index !== revision.index || other.ref === undefined) continue;
      added.set(other.ref.objectNumber, { kind: other.report.kind, intact: other.report.integrity === "intact" && other.report.chain.status !== "invalid" });
    }
    return added;
  };

  const classify = (revision: Revision, permission: ChangePermission, locks: FieldLock[]): Change[] => {
    const key = `${revision.index}|${permission}|${JSON.stringify(locks, (_k, v) => (v instanceof Set ? [...v] : v))}`;
    const known = classified.get(key);
    if (known) return known;
    compared += revision.entries.length;
    if (compared > MAX_COMPARED_OBJECTS) throw tooComplex("too many changed objects to compare");
    let changes: Change[];
    try {
      changes = classifyRevisionChanges(revisions[revision.index - 1].state(), revision, addedIn(revision), permission, locks, walkBudget);
    } catch (error) {
      if ((error as { code?: string }).code === "PDF_TOO_COMPLEX") throw error;
      changes = [{ revision: revision.index, kind: "object-changed", allowed: false, detail: `the revision cannot be read: ${(error as Error).message}` }];
    }
    classified.set(key, changes);
    return changes;
  };

  return function judge(check: SignatureCheck): void {
    const { placement, report } = check;
    if (!placement.ok) return;
    const signed = placement.revision;
    let permission: ChangePermission;
    let locks: FieldLock[];
    try {
      const state = signed.state();
      const catalog = state.lookupDict(state.trailer.get(PDFName.of("Root")));
      const docMdp = catalog ? readFormState(state, catalog).docMdpPermission : undefined;
      // an approval signature restricts nothing by itself (ISO 32000-2 §12.8.2.2): form filling and annotations stay open unless FieldMDP locks a field
      permission = docMdp === 1 ? "none" : docMdp === 2 ? "form" : docMdp === 3 ? "annotations" : "open";
      locks = readFieldLocks(state, check.dict, check.field);
    } catch {
      report.changesAfter.push({ revision: signed.index, kind: "object-changed", allowed: false, detail: "the signed revision cannot be read on its own" });
      return;
    }
    for (const revision of revisions.slice(signed.index + 1)) {
      if (revision.sectionOffset < signed.end) {
        report.changesAfter.push({ revision: revision.index, kind: "xref-not-chained", allowed: false, detail: "a later cross-reference section lies inside the signed bytes" });
        continue;
      }
      for (const change of classify(revision, permission, locks)) (change.allowed ? report.allowedChangesAfter : report.changesAfter).push(change);
    }
    scan ??= scanAppendedBytes(bytes, earliestEnd, revisions, pdf);
    const stray = scan.strayAfter(signed.end, signed.index);
    if (stray) report.changesAfter.push({ revision: revisions.at(-1)!.index, kind: "unaccounted-bytes", allowed: false, detail: `${stray.reason} (offset ${stray.offset})` });
  };
}
