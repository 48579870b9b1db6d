import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";
import { processSingleton } from "@/lib/process-wide/singleton";

export type RequestContext = { requestId: string };

/** One store per process: route bundles each import this file, and must all see the same context. */
function storage(): AsyncLocalStorage<RequestContext> {
  return processSingleton("firmaviva.request-context", () => new AsyncLocalStorage<RequestContext>());
}

const SANE_REQUEST_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The request's id: an integrator's (or proxy's) own `X-Request-Id` when it is short and plain, so
 * their report and our log line share it; otherwise a new one. Nothing else of theirs reaches the logs.
 */
export function requestIdOf(request: Request): string {
  const offered = request.headers.get("x-request-id")?.trim();
  return offered && SANE_REQUEST_ID.test(offered) ? offered : crypto.randomUUID();
}

export function runWithRequestContext<T>(context: RequestContext, work: () => T): T {
  return storage().run(context, work);
}

/** The id of the request this code runs for, if any (background work has none). */
export function currentRequestId(): string | undefined {
  return storage().getStore()?.requestId;
}
