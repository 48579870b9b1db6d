import type { FieldErrors, Resolver } from "react-hook-form";
import { ZCreateProcessFields } from "@/lib/processes/schemas";

export type SignerValues = {
  nat: string;
  doc_id: string;
  signerAlias: string;
  contactType: "" | "email" | "whatsapp";
  contactValue: string;
  /** The identity challenge: none, the facial check, or (our extension) the organization's eID provider; one at most, as the API allows. */
  identity: SignerIdentityChoice;
  size: "1" | "2";
  orientation: "horizontal" | "vertical";
};
export const signerIdentityChoices = ["none", "facial", "eid"] as const;
export type SignerIdentityChoice = (typeof signerIdentityChoices)[number];

export type NewProcessValues = {
  signers: SignerValues[];
  signOrder: boolean;
  expireDays: string;
  description: string;
  urlCallback: string;
  labels: string[];
};

export const emptySigner = (nat = "PER"): SignerValues => ({
  nat, doc_id: "", signerAlias: "", contactType: "email", contactValue: "", identity: "none", size: "1", orientation: "horizontal",
});

/** The form's values in the wire shape of PUT /api/signature_processes (ZCreateProcessFields input). */
export function toProcessFields(values: NewProcessValues, fileCount: number) {
  const days = Number(values.expireDays);
  return {
    signers: values.signers.map((s) => ({
      nat: s.nat,
      doc_id: s.doc_id,
      signerAlias: s.signerAlias.trim() || undefined,
      signChallenges: s.identity === "none" ? [] : [s.identity],
      contactInfo: s.contactType && s.contactValue.trim() ? { type: s.contactType, value: s.contactValue.trim() } : null,
      stampPositions: Object.fromEntries(
        Array.from({ length: Math.max(fileCount, 1) }, (_, i) => [String(i), { "1": { size: Number(s.size), orientation: s.orientation } }]),
      ),
    })),
    signOrder: values.signOrder,
    expire: values.expireDays.trim() === "" ? undefined : Number.isFinite(days) ? Math.round(days * 86400) : values.expireDays,
    description: values.description,
    urlCallback: values.urlCallback.trim() || undefined,
    labels: values.labels,
  };
}

/** Error paths of the schema mapped back onto the form's field names. */
function formPath(path: PropertyKey[]): string {
  const [head, index, field, sub] = path.map(String);
  if (head === "signers" && index !== undefined) {
    if (field === "contactInfo") return `signers.${index}.contactValue`;
    if (field === "signChallenges") return `signers.${index}.identity`;
    if (field === "nat" || field === "doc_id") return `signers.${index}.${field}`;
    return `signers.${index}.doc_id`;
  }
  if (head === "expire") return "expireDays";
  void sub;
  return head ?? "root";
}

/** react-hook-form resolver that validates with the API's own schema, ZCreateProcessFields. */
export function processFieldsResolver(fileCount: () => number): Resolver<NewProcessValues> {
  return async (values) => {
    const result = ZCreateProcessFields.safeParse(toProcessFields(values, fileCount()));
    if (result.success) return { values, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of result.error.issues) {
      const key = formPath(issue.path);
      errors[key] ??= { type: issue.code, message: issue.message };
    }
    return { values: {}, errors: nest(errors) };
  };
}

function nest(flat: Record<string, { type: string; message: string }>): FieldErrors<NewProcessValues> {
  const root: Record<string, unknown> = {};
  for (const [key, error] of Object.entries(flat)) {
    const parts = key.split(".");
    let node = root;
    parts.slice(0, -1).forEach((p) => {
      node[p] ??= /^\d+$/.test(p) ? {} : {};
      node = node[p] as Record<string, unknown>;
    });
    node[parts[parts.length - 1]] = error;
  }
  // react-hook-form reads array errors by index; arrays of errors are plain objects keyed by index here
  if (root.signers) root.signers = Object.assign([], root.signers);
  return root as FieldErrors<NewProcessValues>;
}
