import pino, { type Logger } from "pino";
import { currentRequestId } from "./request-context";
import { processSingleton } from "@/lib/process-wide/singleton";

/**
 * Structured JSON lines on stdout through pino, at LOG_LEVEL. Every line written while a request
 * is served carries its `requestId` (the one sent back as X-Request-Id), so an integrator's report
 * leads to the log lines. One logger per process (globalThis), whatever bundle imports it.
 */
export function logger(): Logger {
  return processSingleton("firmaviva.logger", () =>
    pino({
      level: (process.env.LOG_LEVEL ?? "info").toLowerCase(),
      base: { pid: process.pid },
      messageKey: "message",
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
    }),
  );
}

/** Keys pino writes itself: a field of the same name would make a second, conflicting JSON key. */
const RESERVED_KEYS = new Set(["level", "time", "pid", "message", "requestId"]);

export function ownFields(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [RESERVED_KEYS.has(key) ? `field_${key}` : key, value]));
}

export function logInfo(message: string, fields: Record<string, unknown> = {}) {
  logger().info(ownFields(fields), message);
}

export function logWarn(message: string, fields: Record<string, unknown> = {}) {
  logger().warn(ownFields(fields), message);
}

/**
 * An error's class, code and constraint (its whole cause chain), and its stack frames; its message
 * only when it does not come from the database. drizzle's query errors carry the statement and its
 * parameters, and PostgreSQL's messages and details quote the values (names, DNI, addresses).
 */
export function logError(message: string, error?: unknown, fields: Record<string, unknown> = {}) {
  logger().error(ownFields({ ...describeError(error), ...fields }), message);
}

type ErrorLike = { name?: unknown; code?: unknown; constraint?: unknown; constraint_name?: unknown; table?: unknown; table_name?: unknown; message?: unknown; stack?: unknown; cause?: unknown };

/** What an error may put in a log line: never the objects it holds, never a query's parameters. */
export function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { errorClass: typeof error };
  const chain: ErrorLike[] = [];
  for (let at: unknown = error; at && typeof at === "object" && chain.length < 5; at = (at as ErrorLike).cause) chain.push(at as ErrorLike);
  const fromDatabase = chain.some(isDatabaseError);
  const text = (value: unknown) => (typeof value === "string" && /^[\w.:-]{1,120}$/.test(value) ? value : undefined);
  const causes = chain.map((e) => ({
    class: (e as object).constructor?.name ?? text(e.name),
    code: text(e.code) ?? (typeof e.code === "number" ? e.code : undefined),
    constraint: text(e.constraint) ?? text(e.constraint_name),
    table: text(e.table) ?? text(e.table_name),
  }));
  const frames = typeof error.stack === "string" ? error.stack.split("\n").filter((line) => /^\s+at /.test(line)).slice(0, 15).join("\n") : undefined;
  return {
    errorClass: causes[0].class,
    ...(causes[0].code !== undefined ? { code: causes[0].code } : {}),
    ...(causes.find((c) => c.constraint) ? { constraint: causes.find((c) => c.constraint)!.constraint } : {}),
    ...(causes.length > 1 ? { causes: causes.slice(1) } : {}),
    ...(fromDatabase ? {} : { error: error.message }),
    stack: frames,
  };
}

function isDatabaseError(error: ErrorLike): boolean {
  const name = (error as object).constructor?.name ?? "";
  // SQLSTATE codes are five characters; drizzle wraps the driver's error in DrizzleQueryError
  return /Query|Postgres|Database/.test(name) || (typeof error.code === "string" && /^[0-9A-Z]{5}$/.test(error.code)) || (typeof error.message === "string" && error.message.startsWith("Failed query"));
}
