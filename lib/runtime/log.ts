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

/** An error's message and stack, never the objects it may hold (a request, a key, a document). */
export function logError(message: string, error?: unknown, fields: Record<string, unknown> = {}) {
  const detail = error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) };
  logger().error(ownFields({ ...detail, ...fields }), message);
}
