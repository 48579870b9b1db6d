import { identityLevels, identityMethods } from "@/lib/identity-assurance/identity-level";
import { z } from "zod";
import { ZPageLimit } from "@/lib/request-reading/page-limit";
import { processStatuses } from "@/db/schema";
import { ZPersonNames } from "@/lib/identity-registry/schemas";
import { nationalIdProblem, normalizeDocId } from "@/lib/identity-registry/check-national-id";

/** Multipart bodies carry JSON in text fields (decision 10); JSON bodies carry it as values. */
const jsonText = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => {
    if (typeof value !== "string") return value;
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }, schema);

const booleanText = z.preprocess((v) => (v === "true" || v === "1" ? true : v === "false" || v === "0" ? false : v), z.boolean());
const MAX_SECONDS = 10 * 365 * 86400;
export const ZSeconds = z.preprocess(
  (v) => (typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v.trim()) : v),
  z.number("debe ser un entero de segundos").int("debe ser un entero de segundos").positive("debe ser positivo").max(MAX_SECONDS),
);
const emptyAsUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);

export const ZProcessId = z.string().trim().min(1).max(100);

export const ZContactInfo = z
  .object({
    type: z.enum(["email", "whatsapp"]),
    value: z.string().trim().min(1).max(320),
    tz: z.string().regex(/^[+-](0\d|1[0-4]):[0-5]\d$/, "tz debe tener la forma (+|-)HH:MM").default("-05:00"),
  })
  .superRefine((c, ctx) => {
    const ok = c.type === "email" ? z.email().safeParse(c.value).success : /^\+\d{8,15}$/.test(c.value);
    if (!ok) ctx.addIssue({ code: "custom", path: ["value"], message: c.type === "email" ? "e-mail inválido" : "whatsapp: + y solo dígitos" });
  });

const ZStampEntry = z.object({
  x: z.number().int("x debe ser un entero").optional(),
  y: z.number().int("y debe ser un entero").optional(),
  page: z.number().int("page debe ser un entero").optional(),
  size: z.union([z.literal(1), z.literal(2)]).default(1),
  orientation: z.enum(["horizontal", "vertical"]).default("horizontal"),
});
/** Keyed by file index then page; page/x/y are overwritten by the service, size/orientation are kept. */
export const ZStampPositionsInput = z.record(
  z.string().regex(/^\d+$/, "las claves deben ser índices de archivo"),
  z.record(z.string(), ZStampEntry),
);
export type StampPositionsInput = z.infer<typeof ZStampPositionsInput>;

const ZNatDocId = z.object({ nat: z.string().trim().toUpperCase().default("PER"), doc_id: z.string().transform(normalizeDocId) });
const checkNatDocId = (s: { nat: string; doc_id: string }, ctx: z.RefinementCtx) => {
  const problem = nationalIdProblem(s.nat, s.doc_id);
  if (problem) ctx.addIssue({ code: "custom", path: [problem.startsWith("nat") ? "nat" : "doc_id"], message: problem });
};

export const ZSignerInput = ZNatDocId.extend({
  signatureType: z.literal("advanced").default("advanced"),
  signChallenges: z
    .array(z.enum(["facial", "eid"]))
    .max(1, "signChallenges admite un solo desafío: facial o eid")
    .default([])
    .describe("facial, or (our extension) eid: the signer identifies at the organization's OpenID Connect provider"),
  stampPositions: ZStampPositionsInput.optional(),
  contactInfo: ZContactInfo.optional().nullable(),
  signerAlias: z.string().trim().max(200).optional(),
  pinfo: ZPersonNames.optional().describe("Our extension: names proposed to the signer, who confirms or corrects them; the wire pinfo is filled once they do"),
}).superRefine(checkNatDocId);
export type SignerInput = z.infer<typeof ZSignerInput>;

export const ZCreateProcessFields = z
  .object({
    signers: jsonText(z.array(ZSignerInput).min(1).max(20)),
    signOrder: z.preprocess(emptyAsUndefined, booleanText.default(false)),
    expire: z.preprocess(emptyAsUndefined, ZSeconds.default(30 * 86400)),
    link_expire: z.preprocess(emptyAsUndefined, ZSeconds.optional()),
    description: z.string().max(2000).default(""),
    urlCallback: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/, error: "urlCallback debe ser una URL http(s)" }).max(2000).optional()),
    labels: z.preprocess(emptyAsUndefined, jsonText(z.array(z.string().min(1).max(100)).max(50)).default([])),
    readChallenges: z.preprocess(emptyAsUndefined, jsonText(z.array(z.literal("signerId")).max(1)).default(["signerId"])),
  })
  .superRefine((f, ctx) => {
    if (f.link_expire !== undefined && f.link_expire > f.expire) {
      ctx.addIssue({ code: "custom", path: ["link_expire"], message: "link_expire no puede superar expire" });
    }
    const seen = new Set<string>();
    f.signers.forEach((s, i) => {
      const key = `${s.nat}:${s.doc_id}`;
      if (seen.has(key)) ctx.addIssue({ code: "custom", path: ["signers", i, "doc_id"], message: `firmante repetido ${key}` });
      seen.add(key);
    });
  });
export type CreateProcessFields = z.infer<typeof ZCreateProcessFields>;

export const ZModifySigner = ZNatDocId.extend({
  action: z.enum(["update", "remove"]),
  signerAlias: z.string().trim().max(200).optional(),
  stampPositions: ZStampPositionsInput.optional(),
  contactInfo: ZContactInfo.optional().nullable(),
  pinfo: ZPersonNames.optional().describe("Our extension: names proposed to the signer (until they confirm theirs)"),
}).superRefine(checkNatDocId);

export const ZModifyProcess = z.object({
  process_id: ZProcessId,
  description: z.string().max(2000).optional(),
  signers: z.preprocess(emptyAsUndefined, jsonText(z.array(ZModifySigner).max(20)).optional()),
});
export type ModifyProcessInput = z.infer<typeof ZModifyProcess>;

const CREATION_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2}):(\d{2}):(\d{2})([+-])(\d{2}):(\d{2})$/;

/** `YYYYMMDDThh:mm:ss+00:00`; an unencoded `+` arrives as a space and is read as `+`. */
export const ZCreationDate = z.string().transform((value, ctx) => {
  const m = CREATION_DATE.exec(value.replace(/ (\d{2}:\d{2})$/, "+$1"));
  const date = m ? new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7]}${m[8]}:${m[9]}`) : null;
  const roundTrip = m && date && !Number.isNaN(date.getTime()) && new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])).getUTCDate() === +m[3];
  if (!roundTrip || +m[4] > 23 || +m[8] > 14) {
    ctx.addIssue({ code: "custom", message: "debe tener la forma YYYYMMDDThh:mm:ss+00:00" });
    return z.NEVER;
  }
  return date!;
});

const ZListCursorObject = z.object(
  { processId: z.string().min(1).max(100), date: z.iso.datetime({ offset: true }) },
  "last_item debe ser el JSON devuelto por una respuesta 206",
);
export const ZListCursor = jsonText(ZListCursorObject);

export const ZListProcessesQuery = z.object({
  limit: ZPageLimit,
  creation_start: z.preprocess(emptyAsUndefined, ZCreationDate.optional().describe("YYYYMMDDThh:mm:ss+00:00")),
  creation_end: z.preprocess(emptyAsUndefined, ZCreationDate.optional().describe("YYYYMMDDThh:mm:ss+00:00")),
  status: z.preprocess(emptyAsUndefined, z.enum(processStatuses).optional()),
  process_id: z.preprocess(emptyAsUndefined, ZProcessId.optional().describe("When given, every other parameter is ignored")),
  last_item: z.preprocess(emptyAsUndefined, ZListCursor.optional()),
});
export type ListProcessesQuery = z.infer<typeof ZListProcessesQuery>;

export const ZRejectProcesses = z.object({
  process_id_list: z.preprocess(
    (v) => (typeof v === "string" && !v.trim().startsWith("[") ? [v] : v),
    jsonText(z.array(ZProcessId).min(1).max(100)),
  ),
});

export const ZNotifyProcess = z.object({
  process_id: ZProcessId,
  link_expire: z.preprocess(emptyAsUndefined, ZSeconds.optional()),
});

// Answers. The OpenAPI document is generated from these and the use cases are typed by them, so
// the two cannot drift apart.
export const ZSigningLinks = z.array(z.object({ link: z.string(), nat_dni: z.string().describe("<nat>:<doc_id>") }));
export const ZLinksMessage = z
  .union([z.string(), ZSigningLinks])
  .describe("The signing link as text (shared link mode), a {link, nat_dni} per signer (per-signer mode), or `approvalPending`");
export type LinksMessage = z.infer<typeof ZLinksMessage>;

export const ZCreatedProcess = z.object({ id: z.string().describe("<32 hex>:<16 hex>"), msg: ZLinksMessage });
export type CreatedProcess = z.infer<typeof ZCreatedProcess>;

export const ZRejectAnswer = z.object({
  errors: z.array(z.object({ process_id: z.string(), error: z.enum(["forbidden", "not found"]) })).describe("The ids that could not be rejected"),
});
export type RejectAnswer = z.infer<typeof ZRejectAnswer>;

const ZStampSlot = z.object({ page: z.number().int(), x: z.number().int().describe("PDF points from the left edge"), y: z.number().int().describe("PDF points from the bottom edge"), size: z.number().int(), orientation: z.enum(["horizontal", "vertical"]) });
const ZFacialCheck = z.object({ result: z.boolean(), msg: z.string(), id: z.string(), expire: z.number().int(), selfie: z.string() });
const ZSignerIdentity = z
  .object({
    level: z.enum(identityLevels).describe("eid | registry | document-reviewed | document | none: how strongly the signer was identified (docs/process-api.md)"),
    method: z.enum(identityMethods),
    reviewedBy: z.string().optional().describe("Staff e-mail that approved the signer's own ID photo (document-reviewed)"),
    at: z.string().describe("ISO 8601 time the level was established"),
    provider: z.string().optional().describe("eid: the identity provider's issuer URL"),
    referenceBy: z
      .object({
        kind: z.enum(["user", "credential"]).describe("A staff member (dashboard) or a process-API credential"),
        id: z.string().nullable().describe("The staff user's or credential's id"),
        name: z.string().describe("Staff e-mail or credential clientname"),
        at: z.string().describe("ISO 8601 time the reference portrait was supplied"),
      })
      .optional()
      .describe("registry: who supplied the reference portrait the selfie matched (a holder of identity:registry), and when (our extension, issue 36)"),
  })
  .describe("Our extension: the signer's identity assurance level, also in the signer certificate as a certificatePolicies OID (docs/pdf-engine.md)");

/** A process on the wire: list records carry ISO 8601 dates, the callback payload epoch seconds. */
const processPayload = <D extends z.ZodType<string | number>>(date: D) =>
  z.object({
    id: z.string(),
    status: z.enum(processStatuses),
    date,
    expire: date,
    description: z.string(),
    sign_order: z.boolean(),
    documents: z.array(z.object({ id: z.string(), name: z.string(), pages: z.number().int(), url: z.string().describe("Download link, valid 120 s") })),
    signers: z.array(
      z.object({
        nat: z.string(),
        doc_id: z.string(),
        signatureType: z.string(),
        signChallenges: z.array(z.string()),
        stampPositions: z.record(z.string(), z.record(z.string(), ZStampSlot)).describe("File index, then page number"),
        contactInfo: z.object({ type: z.enum(["email", "whatsapp"]), value: z.string(), tz: z.string(), notified: z.boolean() }).nullable(),
        signerAlias: z.string(),
        sign_data: z.object({ signAction: z.string().optional(), facial: ZFacialCheck.optional(), date: z.number().int().optional(), result: z.string().optional(), identity: ZSignerIdentity.optional() }),
        pinfo: z.object({ given_name: z.string(), family_name: z.string() }),
      }),
    ),
    signers_search: z.array(z.string().describe("<nat>:<doc_id>")),
    labels: z.array(z.string()),
    readChallenges: z.array(z.string()),
    urlCallback: z.string(),
    nat: z.string(),
    per_id: z.string().describe("clientname of the credential that created the process"),
  });
export type ProcessPayload = z.infer<ReturnType<typeof processPayload<z.ZodType<string | number>>>>;

export const ZListedProcess = processPayload(z.iso.datetime({ offset: true }));
export const ZCallbackPayload = processPayload(z.number().int().describe("epoch seconds"));
export const ZProcessPage = z.object({
  signatureProcesses: z.array(ZListedProcess),
  last_item: ZListCursorObject.nullable().describe("null when complete; on a 206, the cursor to send back as last_item"),
});
