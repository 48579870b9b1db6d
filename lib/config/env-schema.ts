import { z } from "zod";
import { parseTrustedProxies } from "@/lib/config/client-address";

const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());

/** Every setting the service reads from the environment. Documented in README.md. */
export const ZEnv = z.object({
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(65535).default(3000)),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default("./data")),
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional(),
  ),
  APP_ENV: z.preprocess(emptyAsUndefined, z.enum(["quality", "production"]).default("quality")),
  PUBLIC_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
  SECRET_KEY: z.preprocess(
    emptyAsUndefined,
    z.string().min(32, "must be at least 32 characters (use `openssl rand -hex 32`)").optional(),
  ),
  SMTP_URL: z.preprocess(emptyAsUndefined, z.string().regex(/^smtps?:\/\//, "must start with smtp:// or smtps://").optional()),
  MAIL_FROM: z.preprocess(emptyAsUndefined, z.string().min(3).default("FirmaViva <no-reply@firmaviva.local>")),
  WHATSAPP_API_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
  WHATSAPP_TOKEN: optionalString,
  WHATSAPP_PHONE_NUMBER_ID: z.preprocess(emptyAsUndefined, z.string().regex(/^\d+$/, "must be the numeric phone number id").optional()),
  // approved template for business-initiated messages; its body parameters are listed in README.md
  WHATSAPP_TEMPLATE_NAME: z.preprocess(emptyAsUndefined, z.string().regex(/^[a-z0-9_]{1,512}$/, "must be a template name: lowercase letters, digits and _").optional()),
  WHATSAPP_TEMPLATE_LANGUAGE: z.preprocess(emptyAsUndefined, z.string().regex(/^[a-z]{2,3}(_[A-Za-z]{2,4})?$/, "must be a template language code such as es, es_PE or pt_BR").default("es")),
  MAX_UPLOAD_MB: z.preprocess(emptyAsUndefined, z.coerce.number().positive().max(2048).default(50)),
  ORG_DOMAIN: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/, "must be a domain name such as demo.local")
      .default("demo.local"),
  ),
  ADMIN_EMAIL: z.preprocess(emptyAsUndefined, z.email().default("admin@demo.local")),
  ADMIN_PASSWORD: z.preprocess(emptyAsUndefined, z.string().min(12, "must be at least 12 characters").optional()),
  // secret of the first start's admin process-API credential (generated and printed once when unset)
  ADMIN_API_SECRET: z.preprocess(emptyAsUndefined, z.string().min(16, "must be at least 16 characters").optional()),
  // read by the worker pools themselves (lib/server/worker-pools.ts); validated here so a typo stops the start
  CPU_WORKERS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(64).optional()),
  CPU_QUEUE_LIMIT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(10_000).optional()),
  // the anonymous verifier's share of the pool: workers it may hold (default all but one) and tasks that may wait
  VERIFY_WORKERS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(64).optional()),
  VERIFY_QUEUE_LIMIT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(10_000).optional()),
  // verifications a minute per client address (IPv6: per /64)
  VERIFY_RATE_LIMIT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100_000).default(20)),
  // share of signPDF outputs verified in full after answering, to check the level derived per request (tests: 1)
  LEVEL_AUDIT_RATE: z.preprocess(emptyAsUndefined, z.coerce.number().min(0).max(1).default(0.02)),
  CPU_TASK_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1000).max(3_600_000).optional()),
  TRUST_ANCHORS_FILE: optionalString,
  FRAME_ANCESTORS: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^(https:\/\/[a-z0-9.-]+(:\d+)?)( https:\/\/[a-z0-9.-]+(:\d+)?)*$/i, "must be https origins separated by spaces")
      .optional(),
  ),
  TSA_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
  TSA_AUTH_TOKEN: optionalString,
  // sent to an external TSA_URL; never the token that guards our own /api/tsa
  TSA_URL_AUTH_TOKEN: optionalString,
  // PKCS#11 token for the CA, TSA and agent keys (lib/certificates/platform-token.ts); all three or none
  PKCS11_MODULE: z.preprocess(emptyAsUndefined, z.string().regex(/^\//, "must be the absolute path of the PKCS#11 library (.so)").max(4096).optional()),
  PKCS11_TOKEN_LABEL: z.preprocess(emptyAsUndefined, z.string().max(32, "must be at most 32 characters (a PKCS#11 token label)").optional()),
  PKCS11_PIN: z.preprocess(emptyAsUndefined, z.string().min(4, "must be at least 4 characters").max(255).optional()),
  STAMP_TOKEN_TTL_DAYS: z.preprocess(emptyAsUndefined, z.coerce.number().positive().default(30)),
  FACE_MATCH_THRESHOLD: z.preprocess(emptyAsUndefined, z.coerce.number().gt(0).max(1).optional()),
  // facial challenge tickets per signer per 10 minutes (default 6); read by lib/signers/facial-ticket-ledger.ts
  FACIAL_TICKET_LIMIT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100).optional()),
  OUTBOX_RETRY_BASE_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().positive().max(3600).default(30)),
  OUTBOX_LEASE_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(5).max(3600).default(120)),
  // names this instance in outbox leases; a restart under the same name frees its old leases at once
  INSTANCE_ID: z.preprocess(emptyAsUndefined, z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/, "letters, digits and . _ : - only").optional()),
  // S3-compatible blob store (AWS S3, MinIO…): used when S3_BUCKET is set
  S3_BUCKET: z.preprocess(emptyAsUndefined, z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a valid bucket name (3-63 lowercase letters, digits, . and -)").optional()),
  S3_ENDPOINT: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
  S3_REGION: z.preprocess(emptyAsUndefined, z.string().regex(/^[a-z0-9-]{1,40}$/, "must be a region name such as us-east-1").default("us-east-1")),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: z.preprocess(emptyAsUndefined, z.enum(["true", "false"]).optional()),
  S3_PREFIX: z.preprocess(emptyAsUndefined, z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/, "must be a key prefix such as firmaviva/prod").optional()),
  LOG_LEVEL: z.preprocess(emptyAsUndefined, z.enum(["debug", "info", "warn", "error"]).default("info")),
  // bearer token of GET /api/metrics; unset, the endpoint does not exist (404)
  METRICS_TOKEN: z.preprocess(emptyAsUndefined, z.string().regex(/^[\x21-\x7e]{24,256}$/, "must be 24 to 256 printable characters without spaces (use `openssl rand -hex 32`)").optional()),
  // reverse proxies whose X-Forwarded-For is believed (lib/config/client-address.ts); none by default
  TRUSTED_PROXIES: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .optional()
      .superRefine((value, context) => {
        try {
          parseTrustedProxies(value);
        } catch (error) {
          context.addIssue({ code: "custom", message: `${(error as Error).message}; list CIDR ranges separated by commas or spaces` });
        }
      }),
  ),
  // addresses besides loopback that may use the backup channel (lib/backup/admin-channel.ts); none by default
  ADMIN_ALLOW: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .optional()
      .superRefine((value, context) => {
        try {
          parseTrustedProxies(value);
        } catch (error) {
          context.addIssue({ code: "custom", message: `${(error as Error).message}; list CIDR ranges separated by commas or spaces` });
        }
      }),
  ),
  // the backup channel's bearer token; unset, one is generated into DATA_DIR/admin.token (npm run admin -- admin-token:rotate)
  ADMIN_TOKEN: z.preprocess(emptyAsUndefined, z.string().regex(/^[\x21-\x7e]{32,256}$/, "must be 32 to 256 printable characters without spaces (use `openssl rand -hex 32`)").optional()),
}).superRefine((env, context) => {
  const pkcs11 = { PKCS11_MODULE: env.PKCS11_MODULE, PKCS11_TOKEN_LABEL: env.PKCS11_TOKEN_LABEL, PKCS11_PIN: env.PKCS11_PIN };
  if (!Object.values(pkcs11).some(Boolean)) return;
  for (const [name, value] of Object.entries(pkcs11)) {
    if (!value) context.addIssue({ code: "custom", path: [name], message: "must be set together with PKCS11_MODULE, PKCS11_TOKEN_LABEL and PKCS11_PIN (the signing keys are in that token)" });
  }
}).refine((env) => !env.ADMIN_API_SECRET || env.ADMIN_API_SECRET !== env.ADMIN_PASSWORD, {
  path: ["ADMIN_API_SECRET"],
  message: "must differ from ADMIN_PASSWORD (a password change must not leave the credential open)",
});

export type Env = z.infer<typeof ZEnv>;

/** Turns a zod failure into one line per variable, for a start-up message a person can act on. */
export function describeEnvErrors(error: z.ZodError): string {
  return error.issues
    .map((issue) => `  ${issue.path.join(".") || "(env)"}: ${issue.message}`)
    .join("\n");
}
