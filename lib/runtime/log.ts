/** Structured one-line logs on stdout/stderr; enough for a container runtime to collect. */
export function logInfo(message: string, fields: Record<string, unknown> = {}) {
  console.log(JSON.stringify({ level: "info", time: new Date().toISOString(), message, ...fields }));
}

export function logWarn(message: string, fields: Record<string, unknown> = {}) {
  console.warn(JSON.stringify({ level: "warn", time: new Date().toISOString(), message, ...fields }));
}

export function logError(message: string, error?: unknown, fields: Record<string, unknown> = {}) {
  const detail = error instanceof Error ? { error: error.message, stack: error.stack } : { error };
  console.error(JSON.stringify({ level: "error", time: new Date().toISOString(), message, ...detail, ...fields }));
}
