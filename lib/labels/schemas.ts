import { z } from "zod";
import { ZPageLimit } from "@/lib/request-reading/page-limit";

const emptyAsUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);

export const ZLabelName = z.string().min(1, "label es obligatorio").max(100).refine((s) => s.trim() === s && !/[\u0000-\u001f]/.test(s), "label sin espacios al inicio o final ni caracteres de control");

export const ZLabelBody = z.object({ label: ZLabelName });

export const ZLabelCursor = z.preprocess(
  (v) => {
    if (typeof v !== "string") return v;
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  },
  z.object({ label: z.string().min(1).max(100), usr_id: z.string().min(1).max(320) }, "last_item debe ser el JSON {label, usr_id} de una respuesta 206"),
);

export const ZListLabelsQuery = z.object({
  limit: ZPageLimit,
  last_item: z.preprocess(emptyAsUndefined, ZLabelCursor.optional()),
});
export type ListLabelsQuery = z.infer<typeof ZListLabelsQuery>;

// The answer of GET /api/labels; the OpenAPI document is generated from it.
export const ZLabelRecord = z.object({ label: z.string(), usr_id: z.string().describe("clientname of the owner") });
export const ZLabelPage = z.object({ labels: z.array(ZLabelRecord), last_item: ZLabelRecord.optional().describe("On a 206: the cursor to send back as last_item") });
export type LabelPage = { status: 200 | 206; body: z.infer<typeof ZLabelPage> };
