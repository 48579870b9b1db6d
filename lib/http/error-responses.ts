import { BUSY_RETRY_AFTER_SECONDS, isAppError, type AppError, type ErrorCode } from "@/lib/errors";
import { logError } from "@/lib/runtime/log";
import { currentRequestId } from "@/lib/runtime/request-context";

/** `stamp-v3-token` is the v3 token endpoint, whose every failure is `{error}` (decision 4). */
export type ApiFamily = "stamp" | "stamp-v3-token" | "process" | "json";

type Row = { status: number; stamp: string | null; process: string };

/** The one table from error code to HTTP status and message, per API family. */
const table: Record<ErrorCode, Row> = {
  VALIDATION: { status: 400, stamp: null, process: "bad request" },
  UNAUTHORIZED: { status: 401, stamp: "Token inválido, expirado o reemplazado por uno más reciente", process: "unauthorized" },
  INVALID_CREDENTIALS: { status: 401, stamp: "Credenciales inválidas", process: "not found" },
  FORBIDDEN: { status: 403, stamp: "No tiene permiso para esta operación", process: "forbidden" },
  NOT_FOUND: { status: 404, stamp: "No encontrado", process: "not found" },
  CONFLICT: { status: 409, stamp: null, process: "conflict" },
  TX_TOKEN_REUSED: {
    status: 409,
    stamp: "El tx_token ya fue utilizado en otro proceso; envíe un valor diferente",
    process: "conflict",
  },
  PAYLOAD_TOO_LARGE: { status: 413, stamp: null, process: "payload too large" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, stamp: null, process: "bad request" },
  INVALID_PDF: { status: 400, stamp: null, process: "bad request" },
  ENCRYPTED_PDF: { status: 400, stamp: null, process: "bad request" },
  CERTIFIED_NO_CHANGES: { status: 400, stamp: null, process: "bad request" },
  PAGE_NOT_FOUND: { status: 400, stamp: null, process: "bad request" },
  STAMP_OUT_OF_PAGE: { status: 400, stamp: null, process: "bad request" },
  INVALID_IMAGE: { status: 400, stamp: null, process: "bad request" },
  SIGNING_FAILED: { status: 500, stamp: "Error al firmar el PDF.", process: "internal error" },
  LOCKED: { status: 423, stamp: null, process: "locked" },
  GONE: { status: 410, stamp: null, process: "gone" },
  ORGANIZATION_SUSPENDED: { status: 401, stamp: "La organización está suspendida", process: "unauthorized" },
  RATE_LIMITED: { status: 429, stamp: null, process: "too many requests" },
  BUSY: { status: 503, stamp: "El servicio está ocupado; reintente en unos segundos.", process: "service unavailable" },
  INTERNAL: { status: 500, stamp: "Ocurrió un error, consulta con el administrador", process: "internal error" },
};

// The process API answers 404 "not found" for a failed login, as its spec says.
const processStatusOverride: Partial<Record<ErrorCode, number>> = { INVALID_CREDENTIALS: 404, PAYLOAD_TOO_LARGE: 413 };

export function statusOf(code: ErrorCode, family: ApiFamily): number {
  return (family === "process" ? processStatusOverride[code] : undefined) ?? table[code].status;
}

/** Maps any thrown value to the response of the given API family; unknown errors leak nothing. */
export function errorResponse(error: unknown, family: ApiFamily): Response {
  const appError: AppError | null = isAppError(error) ? error : null;
  if (!appError) logError("unhandled error", error);
  const code: ErrorCode = appError?.code ?? "INTERNAL";
  const row = table[code];
  const status = statusOf(code, family);
  // a full work queue is temporary: say when to come back
  const retry: Record<string, string> = code === "BUSY" ? { "retry-after": String(BUSY_RETRY_AFTER_SECONDS) } : {};
  const wait = (appError as { retryAfterSeconds?: number } | null)?.retryAfterSeconds;
  if (code === "RATE_LIMITED") retry["retry-after"] = String(wait ?? 60);
  // the rest of an oversized body is never read: close the connection so the client's next request
  // starts on a fresh one instead of being reset mid-body
  if (status === 413) retry.connection = "close";
  if (family === "process") {
    const headers: Record<string, string> = { "content-type": "text/plain; charset=utf-8", ...retry };
    // a login refused for a malformed body still says which field, though its body is only `not found`
    if (appError && (status === 400 || appError.field)) headers["x-error-detail"] = encodeHeader(appError.field ? `${appError.field}: ${appError.message}` : appError.message);
    return new Response(row.process, { status, headers });
  }
  const message = row.stamp ?? appError?.message ?? table.INTERNAL.stamp!;
  const specific = appError && appError.message !== appError.code && row.stamp === null ? appError.message : message;
  if (family === "stamp-v3-token") {
    return Response.json({ error: code === "INVALID_CREDENTIALS" ? "invalid_credentials" : specific }, { status, headers: retry });
  }
  // the stamp API's body is fixed by its contract ({success, message}): there the id is in X-Request-Id only
  const ours = family === "json" ? { ...(appError?.field ? { field: appError.field } : {}), requestId: currentRequestId() } : {};
  return Response.json({ success: false, message: specific, ...ours }, { status, headers: retry });
}

// Header values must be ISO-8859-1; keep the detail readable while never breaking the response.
function encodeHeader(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, (c) => encodeURIComponent(c)).slice(0, 300);
}
