import { getServices, type Services } from "@/lib/runtime/services";
import { verifyStampToken } from "@/lib/auth/verify-stamp-token";
import { verifyProcessToken, type ProcessCaller } from "@/lib/auth/verify-process-token";
import type { StaffIdentity } from "@/lib/auth/authenticate-staff";
import { can, callerCan, type Permission } from "@/lib/auth/roles";
import { AppError } from "@/lib/errors";
import { errorResponse, type ApiFamily } from "./error-responses";
import { readAuthorization } from "@/lib/request-reading/parse-input";
import { recordStages, requestTimingEnabled, serverTimingHeader, timed } from "@/lib/runtime/request-timing";
import { requestIdOf, runWithRequestContext } from "@/lib/runtime/request-context";
import { metrics, routeLabel } from "@/lib/metrics/metrics";
import { logInfo } from "@/lib/runtime/log";
import { discardUnreadBody } from "@/lib/request-reading/discard-unread-body";

/** How long an answer given before the upload was read waits for the rest of it. */
const UNREAD_BODY_MS = 15_000;

type RouteContext = { params: Promise<Record<string, string | string[]>> };
type Handler<Caller> = (request: Request, context: { caller: Caller; services: Services; params: Record<string, string | string[]> }) => Promise<Response>;

/**
 * Public endpoints of an API family (token endpoints, TSA): error mapping only. Every request (and
 * every other wrapper, which builds on this one) gets its id: in the context of its log lines, in
 * the `X-Request-Id` of its answer, and its duration in the metrics.
 */
export function withPublic(family: ApiFamily, handler: Handler<null>) {
  const respond = async (request: Request, route?: RouteContext) => {
    let services: Services | undefined;
    let response: Response;
    try {
      services = await getServices();
      response = await handler(request, { caller: null, services, params: (await route?.params) ?? {} });
    } catch (error) {
      response = errorResponse(error, family);
    }
    // an answer given before the upload was read (a refused token, a spent budget) must reach a
    // client that closes its connections; a 413's reader has drained the tail it allows and no more
    if (services && response.status !== 413) await discardUnreadBody(request, { maxBytes: services.config.maxUploadBytes, maxMs: UNREAD_BODY_MS });
    return response;
  };
  const measured = async (request: Request, route?: RouteContext) => {
    if (!requestTimingEnabled()) return respond(request, route);
    // profiling (SERVER_TIMING=1): the stages of this request in a Server-Timing header
    const { result, stages, totalMs } = await recordStages(() => respond(request, route));
    return withHeader(result, "server-timing", serverTimingHeader(stages, totalMs));
  };
  return withRequestContext(measured);
}

/**
 * The request's id (X-Request-Id, in every log line written for it), its access log line and its
 * duration in the metrics. withPublic, and so every API wrapper, runs inside it.
 */
export function withRequestContext<R>(handler: (request: Request, route?: R) => Promise<Response> | Response) {
  return async (request: Request, route?: R) => {
    const requestId = requestIdOf(request);
    const started = performance.now();
    const response = await runWithRequestContext({ requestId }, () => handler(request, route));
    const seconds = (performance.now() - started) / 1000;
    // the route with ids and tokens blanked (a signer link's token is a credential), never the query
    const labels = { route: routeLabel(new URL(request.url).pathname), method: request.method, status: String(response.status) };
    metrics().httpDuration.observe(labels, seconds);
    runWithRequestContext({ requestId }, () => logInfo("request", { ...labels, ms: Math.round(seconds * 1000) }));
    return withHeader(response, "x-request-id", requestId);
  };
}

function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    // immutable headers (a fetched or redirect response): copy them
    const headers = new Headers(response.headers);
    headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/** Stamp-signing API: `Authorization: Bearer <token>` from /api/auth/token or /api/v3/auth/token. */
export function withStampToken(permission: Permission, handler: Handler<StaffIdentity>) {
  return withPublic("stamp", async (request, context) => {
    const token = readAuthorization(request, ["bearer"]);
    if (!token) throw new AppError("UNAUTHORIZED");
    const caller = await timed("auth", () => verifyStampToken(token, context.services.db));
    if (!can(caller.role, permission)) throw new AppError("FORBIDDEN");
    return handler(request, { ...context, caller });
  });
}

/** Process API: `Authorization: jwt-bearer <token>` (or Bearer) from /api/auth/login, checked against the role's permissions. */
export function withProcessToken(permission: Permission, handler: Handler<ProcessCaller>) {
  return withPublic("process", async (request, context) => {
    const token = readAuthorization(request, ["jwt-bearer", "bearer"]);
    if (!token) throw new AppError("UNAUTHORIZED");
    const caller = await timed("auth", () => verifyProcessToken(token, { db: context.services.db, secretKey: context.services.config.secretKey }));
    if (!callerCan(caller, permission)) throw new AppError("FORBIDDEN");
    return handler(request, { ...context, caller });
  });
}
