import { z } from "zod";
import { processStatuses } from "@/db/schema";
import { nationalIdProblem, normalizeDocId } from "./check-national-id";

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
  x: z.number().optional(),
  y: z.number().optional(),
  page: z.number().optional(),
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
  signChallenges: z.array(z.literal("facial")).max(1).default([]),
  stampPositions: ZStampPositionsInput.optional(),
  contactInfo: ZContactInfo.optional().nullable(),
  signerAlias: z.string().trim().max(200).optional(),
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

export const ZListCursor = jsonText(
  z.object({ processId: z.string().min(1).max(100), date: z.iso.datetime({ offset: true }) }, "last_item debe ser el JSON devuelto por una respuesta 206"),
);

export const ZListProcessesQuery = z.object({
  limit: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100).default(20)),
  creation_start: z.preprocess(emptyAsUndefined, ZCreationDate.optional()),
  creation_end: z.preprocess(emptyAsUndefined, ZCreationDate.optional()),
  status: z.preprocess(emptyAsUndefined, z.enum(processStatuses).optional()),
  process_id: z.preprocess(emptyAsUndefined, ZProcessId.optional()),
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
