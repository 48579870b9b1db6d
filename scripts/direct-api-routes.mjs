// The hot stamp-signing routes, answered by their own route handlers straight from node:http.
//
// Next's request path (router, app-route wrapper, compression, tracing) cost more server CPU than
// the work of a small answer: /api/health took 3.9 ms of server CPU through Next against 0.7 ms
// straight, plain signPDF 18.3 against 12.2 ms at c=8 (bench/results/2026-12-01-direct-api-routes.txt).
// These routes are API calls with a bearer token and their own error format: they need nothing of
// Next's but the compiled handler. Every other path, and every method a route does not export, goes
// to Next unchanged.
import path from "node:path";
import { createRequire } from "node:module";
import { once } from "node:events";
import { Readable } from "node:stream";

/** Exact pathnames; a trailing slash or any other spelling takes Next's path (and its redirects). */
export const DIRECT_API_ROUTES = Object.freeze([
  "/api/v2/signPDF",
  "/api/v3/signPDF",
  "/api/v2/getSignedPDF",
  "/api/v3/getSignedPDF",
  "/api/v2/signTimeStamp",
  "/api/v3/signTimeStamp",
  // the RFC 3161 transport, which time-stamping clients call once per signature or archive stamp
  "/api/tsa",
]);

const HANDLED_METHODS = ["GET", "POST"];

/**
 * The headers next.config.js's `headers()` gives each direct route, matched by Next's own matcher
 * and applied in order (a later rule's value wins, as in Next).
 */
export async function configHeadersByRoute(root, routes = DIRECT_API_ROUTES) {
  const require = createRequire(path.join(root, "package.json"));
  const { getPathMatch } = require("next/dist/shared/lib/router/utils/path-match");
  const nextConfig = require(path.join(root, "next.config.js"));
  const rules = (await nextConfig.headers?.()) ?? [];
  const byRoute = new Map();
  for (const route of routes) {
    const headers = new Map();
    for (const rule of rules) {
      if (rule.has || rule.missing) throw new Error(`next.config.js header rule ${rule.source}: has/missing is not supported by the direct routes`);
      if (getPathMatch(rule.source)(route) === false) continue;
      for (const { key, value } of rule.headers) headers.set(key.toLowerCase(), value);
    }
    byRoute.set(route, headers);
  }
  return byRoute;
}

/** The request's headers as a route handler sees them through Next (x-forwarded-* filled in as Next does). */
function requestHeaders(req, port) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else headers.set(name, value);
  }
  const forwardedProto = headers.get("x-forwarded-proto");
  const https = forwardedProto ? forwardedProto === "https" : Boolean(req.socket.encrypted);
  if (!headers.has("x-forwarded-host") && headers.has("host")) headers.set("x-forwarded-host", headers.get("host"));
  if (!headers.has("x-forwarded-port")) headers.set("x-forwarded-port", String(port));
  if (!headers.has("x-forwarded-proto")) headers.set("x-forwarded-proto", https ? "https" : "http");
  if (!headers.has("x-forwarded-for") && req.socket.remoteAddress) headers.set("x-forwarded-for", req.socket.remoteAddress);
  return headers;
}

/**
 * A node:http request listener: the direct routes run their compiled handler (`.next/server/app/<route>/route.js`);
 * everything else is `nextHandler`'s. `origin` is the server's own (Next builds a route's request URL
 * from the configured host and port, not from the Host header).
 */
export function directApiRoutes({ root, nextHandler, headersByRoute, origin, port, onError = (error) => console.error(error) }) {
  const require = createRequire(path.join(root, "package.json"));
  // each route's compiled module, loaded at its first request (its userland may load asynchronously)
  const routeModules = new Map();
  const handlerFor = async (route, method) => {
    if (!routeModules.has(route)) {
      const { routeModule } = require(path.join(root, ".next", "server", "app", route, "route.js"));
      routeModules.set(route, routeModule.ensureUserland().then(() => routeModule));
    }
    const handler = (await routeModules.get(route)).userland[method];
    return typeof handler === "function" ? handler : undefined;
  };

  return (req, res) => {
    const queryAt = req.url.indexOf("?");
    const pathname = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
    const configHeaders = headersByRoute.get(pathname);
    if (!configHeaders || !HANDLED_METHODS.includes(req.method)) return nextHandler(req, res);
    handlerFor(pathname, req.method)
      .then((handler) => (handler ? answer(req, res, handler, configHeaders) : nextHandler(req, res)))
      .catch((error) => {
        onError(error);
        if (!res.headersSent) {
          res.writeHead(500, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
          res.end("Internal Server Error");
        } else res.destroy();
      });
  };

  async function answer(req, res, handler, configHeaders) {
    // a client that goes away aborts the request's signal, as Next's does
    const gone = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) gone.abort();
    });
    const body = req.method === "GET" ? undefined : Readable.toWeb(req);
    const request = new Request(origin + req.url, { method: req.method, headers: requestHeaders(req, port), body, duplex: "half", signal: gone.signal });
    const response = await handler(request, { params: Promise.resolve({}) });
    for (const [name, value] of configHeaders) res.setHeader(name, value);
    // the handler's own headers win over the configured ones, as through Next
    for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) res.setHeader("set-cookie", cookies);
    res.statusCode = response.status;
    if (!response.body) return void res.end();
    await writeBody(response.body, res, gone.signal);
  }
}

/**
 * Writes a web body to the node response a piece as the client reads (a slow reader holds one piece),
 * and cancels it if the client leaves, as `pipeline(Readable.fromWeb(body), res)` did at 0.2-0.5 ms
 * more server CPU per small answer (bench/results/2026-12-03-direct-body-writes.txt).
 *
 * Every piece is a `res.write`, so the answer stays chunked even when it is one piece. A one-piece
 * answer sent with Content-Length crashed the client of a caller on Node's fetch: with `Connection:
 * close`, the server's FIN arrives right after the last body byte, and undici's parser, paused on an
 * answer its caller has not read yet, asserts on the socket's end (`assert(!this.paused)`, uncaught).
 * The chunked terminator stays unread behind the paused body, so the end is not seen early.
 */
async function writeBody(body, res, gone) {
  const reader = body.getReader();
  const leave = () => void reader.cancel().catch(() => {});
  // a client that left while the handler worked: the body may hold a file or a worker's output
  if (gone.aborted) return leave();
  gone.addEventListener("abort", leave, { once: true });
  try {
    // the headers, a body already complete and its terminator go out in one write, not three
    res.cork();
    process.nextTick(() => res.uncork());
    for (;;) {
      const { done, value } = await reader.read();
      if (gone.aborted) return;
      if (done) return void res.end();
      if (!res.write(value)) await once(res, "drain", { signal: gone });
    }
  } catch (error) {
    leave();
    if (!gone.aborted) throw error;
  } finally {
    gone.removeEventListener("abort", leave);
  }
}
