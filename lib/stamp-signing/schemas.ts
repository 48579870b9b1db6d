import { z } from "zod";

const flag = (name: string) =>
  z
    .enum(["0", "1"], { error: `${name} debe ser 0 o 1` })
    .default("0")
    .transform((v) => v === "1");

const optionalText = (max: number) =>
  z.preprocess((v) => (v === "" ? undefined : v), z.string().trim().max(max).optional());

/** Client tx_token: exactly 20 alphanumerics (decision 2). */
export const ZClientTxToken = z.string().regex(/^[A-Za-z0-9]{20}$/, "tx_token debe tener exactamente 20 caracteres alfanuméricos");

/**
 * The text fields of signPDF, with the spec's defaults and the "required when page is sent" rules.
 * Files (pdf_file, image) are checked by the use case, which reads their bytes.
 */
export const ZSignPdfFields = z
  .object({
    nationality: z.preprocess((v) => (v === "" ? undefined : v), z.string().trim().toUpperCase().regex(/^[A-Z]{3}$/, "nationality debe tener 3 letras (por ejemplo PER)").default("PER")),
    person_id_type: z.preprocess((v) => (v === "" ? undefined : v), z.string().trim().toUpperCase().pipe(z.enum(["DNI", "CE", "PAS"], { error: "person_id_type debe ser DNI, CE o PAS" })).default("DNI")),
    person_id: optionalText(32).pipe(z.string().regex(/^[A-Za-z0-9-]+$/, "person_id solo admite letras, números y guiones").optional()),
    names: optionalText(120),
    last_names: optionalText(120),
    email: optionalText(320).pipe(z.email("email inválido").optional()),
    tx_token: z.preprocess((v) => (v === "" ? undefined : v), ZClientTxToken.optional()),
    page: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number({ error: "page debe ser un número entero" }).int("page debe ser un número entero").min(0, "page no puede ser negativo").max(1_000_000).optional()),
    position_x: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number({ error: "position_x debe ser un número" }).int("position_x debe ser un número entero").min(0, "position_x no puede ser negativo").default(36)),
    position_y: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number({ error: "position_y debe ser un número" }).int("position_y debe ser un número entero").min(0, "position_y no puede ser negativo").default(36)),
    async: flag("async"),
    binary_resp: flag("binary_resp"),
    sign_type: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["agente", "digital", "otp"], { error: "sign_type debe ser agente, digital u otp" }).default("agente")),
    sign_username: optionalText(200),
    sign_password: z.preprocess((v) => (v === "" ? undefined : v), z.string().max(500).optional()),
    sign_pin: z.preprocess((v) => (v === "" ? undefined : v), z.string().max(200).optional()),
    qr_type: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["auto", "text"], { error: "qr_type debe ser auto o text" }).optional()),
    qr_text: z.preprocess((v) => (v === "" ? undefined : v), z.string().max(2000, "qr_text admite hasta 2000 caracteres").optional()),
    stamp_size: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["1", "2"], { error: "stamp_size debe ser 1 o 2" }).default("1").transform(Number)),
  })
  .superRefine((v, ctx) => {
    if (v.page !== undefined) {
      for (const field of ["person_id", "names", "last_names"] as const) {
        if (!v[field]) ctx.addIssue({ code: "custom", path: [field], message: `${field} es obligatorio cuando se envía page` });
      }
    }
    if (v.sign_type === "digital" && !v.sign_pin) ctx.addIssue({ code: "custom", path: ["sign_pin"], message: "sign_pin es obligatorio para sign_type digital" });
    if (v.qr_type === "text" && !v.qr_text) ctx.addIssue({ code: "custom", path: ["qr_text"], message: "qr_text es obligatorio cuando qr_type es text" });
  });

export type SignPdfFields = z.output<typeof ZSignPdfFields>;

export const ZGetSignedPdfQuery = z.object({
  tx_token: z.string({ error: "tx_token es obligatorio" }).regex(/^[A-Za-z0-9-]{1,64}$/, "tx_token inválido"),
  binary_resp: flag("binary_resp"),
});

export const ZUpdateSignCredentials = z.object({
  sign_username: z.string({ error: "sign_username es obligatorio" }).trim().min(1, "sign_username es obligatorio").max(200),
  sign_password: z.string({ error: "sign_password es obligatorio" }).min(1, "sign_password es obligatorio").max(500),
});

/** certificateHolders enrolment (API and dashboard). */
export const ZEnrollCertificateHolder = z
  .object({
    sign_username: z.string().trim().min(3, "sign_username debe tener al menos 3 caracteres").max(200),
    sign_password: z.string().min(8, "sign_password debe tener al menos 8 caracteres").max(500),
    sign_pin: z.string().min(4, "sign_pin debe tener al menos 4 caracteres").max(200),
    source: z.enum(["built-in", "pkcs12"], { error: "source debe ser built-in o pkcs12" }).default("built-in"),
    p12_password: z.string().max(500).optional(),
    names: z.string().trim().max(120).optional(),
    last_names: z.string().trim().max(120).optional(),
    person_id_type: z.enum(["DNI", "CE", "PAS"]).default("DNI"),
    person_id: z.string().trim().regex(/^[A-Za-z0-9-]{1,32}$/, "person_id inválido").optional(),
    nationality: z.string().trim().toUpperCase().regex(/^[A-Z]{3}$/).default("PER"),
    validity_days: z.coerce.number().int().min(1).max(3 * 365).default(365),
  })
  .superRefine((v, ctx) => {
    if (v.source === "built-in") {
      for (const f of ["names", "last_names", "person_id"] as const) if (!v[f]) ctx.addIssue({ code: "custom", path: [f], message: `${f} es obligatorio para un certificado emitido por la CA integrada` });
    }
  });
export type EnrollCertificateHolderInput = z.output<typeof ZEnrollCertificateHolder>;
