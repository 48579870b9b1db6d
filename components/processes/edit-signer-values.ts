import type { FieldErrors, Resolver } from "react-hook-form";
import type { SignerRow } from "@/lib/processes/load-process-records";
import { ZModifyProcess, type ModifyProcessInput } from "@/lib/processes/schemas";
import type { SignerValues } from "./new-process-values";

export type EditSignerValues = Pick<SignerValues, "signerAlias" | "contactType" | "contactValue" | "size" | "orientation">;

/** What the edit dialog needs to know about a signer; plain data, it crosses to the client. */
export type ModifiableSigner = {
  nat: string;
  docId: string;
  signerAlias: string;
  contactInfo: { type: "email" | "whatsapp"; value: string; tz: string } | null;
  /** The files the signer stamps: a style change must not add or drop any. */
  files: string[];
  size: "1" | "2";
  orientation: "horizontal" | "vertical";
};

export function modifiableSigner(signer: SignerRow, documentCount: number): ModifiableSigner {
  const files = Object.keys(signer.stampPositions);
  const first = Object.values(Object.values(signer.stampPositions)[0] ?? {})[0];
  const contact = signer.contactInfo;
  return {
    nat: signer.nat,
    docId: signer.docId,
    signerAlias: signer.signerAlias,
    contactInfo: contact ? { type: contact.type, value: contact.value, tz: contact.tz } : null,
    files: files.length > 0 ? files : Array.from({ length: documentCount }, (_, i) => String(i)),
    size: first?.size === 2 ? "2" : "1",
    orientation: first?.orientation === "vertical" ? "vertical" : "horizontal",
  };
}

export const editSignerDefaults = (signer: ModifiableSigner): EditSignerValues => ({
  signerAlias: signer.signerAlias,
  contactType: signer.contactInfo?.type ?? "",
  contactValue: signer.contactInfo?.value ?? "",
  size: signer.size,
  orientation: signer.orientation,
});

/** Every editable field of the signer, in the wire shape of one `update` entry of ZModifyProcess. */
function signerUpdate(signer: ModifiableSigner, values: EditSignerValues) {
  const value = values.contactValue.trim();
  return {
    nat: signer.nat,
    doc_id: signer.docId,
    action: "update" as const,
    signerAlias: values.signerAlias.trim(),
    // the time zone belongs to the person, not to the channel: keep it when the contact changes
    contactInfo: values.contactType && value ? { type: values.contactType, value, tz: signer.contactInfo?.tz ?? "-05:00" } : null,
    stampPositions: Object.fromEntries(signer.files.map((f) => [f, { "1": { size: Number(values.size) as 1 | 2, orientation: values.orientation } }])),
  };
}

/**
 * Only what changed goes out (null when nothing did): a contact sent again would notify the
 * signer again, and a stamp style sent again would re-plan the grid for nothing.
 */
export function changedSignerRequest(processId: string, signer: ModifiableSigner, values: EditSignerValues) {
  const full = signerUpdate(signer, values);
  const before = signer.contactInfo;
  const contactChanged = full.contactInfo?.type !== before?.type || full.contactInfo?.value !== before?.value;
  const styleChanged = values.size !== signer.size || values.orientation !== signer.orientation;
  const change = {
    nat: full.nat,
    doc_id: full.doc_id,
    action: full.action,
    ...(full.signerAlias !== signer.signerAlias ? { signerAlias: full.signerAlias } : {}),
    ...(contactChanged ? { contactInfo: full.contactInfo } : {}),
    ...(styleChanged ? { stampPositions: full.stampPositions } : {}),
  };
  return Object.keys(change).length > 3 ? { process_id: processId, signers: [change] } : null;
}

/** A path of ZModifyProcess (`signers.0.contactInfo.value`) mapped onto the dialog's field names. */
export function editFieldOf(path: readonly PropertyKey[]): keyof EditSignerValues | "root" {
  const field = String(path[2] ?? "");
  if (field === "contactInfo") return "contactValue";
  if (field === "signerAlias") return "signerAlias";
  if (field === "stampPositions" || path[0] === "stampPositions") return "size";
  return "root";
}

/** react-hook-form resolver that validates with the API's own schema, ZModifyProcess. */
export function editSignerResolver(processId: string, signer: ModifiableSigner): Resolver<EditSignerValues> {
  return async (values) => {
    const request: ModifyProcessInput = { process_id: processId, signers: [signerUpdate(signer, values)] };
    const result = ZModifyProcess.safeParse(request);
    if (result.success) return { values, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of result.error.issues) errors[editFieldOf(issue.path)] ??= { type: issue.code, message: issue.message };
    return { values: {}, errors: errors as FieldErrors<EditSignerValues> };
  };
}
