import type { SignData, StampPositions } from "@/db/schema";
import { wholePoints } from "./layout-stamp-grid";
import type { SelfieOwner } from "./selfie-link";
import { signedPageCount } from "./count-document-pages";
import type { ProcessRecord } from "./load-process-records";
import type { ProcessPayload } from "./schemas";

export type DateStyle = "iso" | "epoch";

/** ISO 8601 with an explicit offset (lists), or integer epoch seconds (callback). */
export function formatDate(date: Date, style: DateStyle): string | number {
  return style === "epoch" ? Math.floor(date.getTime() / 1000) : date.toISOString().replace("Z", "+00:00");
}

/**
 * A process as the wire shows it (spec, "Resources"): the same fields for list records and the
 * callback payload; only the date style differs. nat/per_id name the process owner: the
 * organization's ID type and the clientname of the credential that created it.
 */
export function formatProcess(
  record: ProcessRecord,
  options: { dates: DateStyle; documentUrl: (document: { id: string; organizationId: string }) => string; selfieUrl: (owner: SelfieOwner) => string },
): ProcessPayload {
  const { process, documents, signers } = record;
  return {
    id: process.id,
    status: process.status,
    date: formatDate(process.createdAt, options.dates),
    expire: formatDate(process.expireAt, options.dates),
    description: process.description,
    sign_order: process.signOrder,
    documents: documents.map((d) => ({ id: d.id, name: d.name, pages: signedPageCount(d), url: options.documentUrl(d) })),
    signers: signers.map((s) => ({
      nat: s.nat,
      doc_id: s.docId,
      signatureType: s.signatureType,
      signChallenges: s.signChallenges,
      stampPositions: wireStampPositions(s.stampPositions),
      contactInfo: s.contactInfo,
      signerAlias: s.signerAlias,
      sign_data: wireSignData(s, options.selfieUrl),
      pinfo: s.pinfo ?? { given_name: "", family_name: "" },
    })),
    signers_search: signers.map((s) => `${s.nat}:${s.docId}`),
    labels: process.labels,
    readChallenges: process.readChallenges,
    urlCallback: process.urlCallback,
    nat: "PER",
    per_id: process.createdByName,
  };
}

/** x and y are integers on the wire; slots stored with decimals by older versions are floored, as they are drawn. */
function wireStampPositions(positions: StampPositions): StampPositions {
  return Object.fromEntries(
    Object.entries(positions).map(([file, pages]) => [file, Object.fromEntries(Object.entries(pages).map(([page, slot]) => [page, { ...slot, ...wholePoints(slot) }]))]),
  );
}

/** The facial selfie is a blob key inside; on the wire it is a signed, expiring link to GET /api/selfies/<signer>. */
function wireSignData(signer: { id: string; organizationId: string; signData: SignData }, selfieUrl: (owner: SelfieOwner) => string): SignData {
  const facial = signer.signData.facial;
  if (!facial) return signer.signData;
  const selfie = facial.selfie ? selfieUrl({ organizationId: signer.organizationId, signerId: signer.id, facialId: facial.id }) : "";
  // the session that made the try binds the proof on the server; it is no integrator's business
  const { session: _session, ...wire } = facial;
  return { ...signer.signData, facial: { ...wire, selfie } };
}
