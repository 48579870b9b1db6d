import http from "node:http";
import https from "node:https";
import net from "node:net";
import { BlockedTargetError, guardedLookup, isPrivateAddress } from "./post-webhook";

/** Thrown when an answer grows past the cap: the rest is never read. */
export class ResponseTooLargeError extends Error {
  constructor(maxBytes: number) {
    super(`answer larger than ${maxBytes} bytes`);
    this.name = "ResponseTooLargeError";
  }
}

export type GuardedFetchOptions = { allowPrivate: boolean; maxBytes: number; timeoutMs: number; userAgent: string };
type FetchInit = { method?: string; headers?: Record<string, string> | Headers; body?: unknown; signal?: AbortSignal | null };

/**
 * A fetch for a library that talks to a server a tenant named (openid-client's customFetch):
 * the callbacks' guard on every request (literal IPs here, resolved names in the lookup, so the address
 * checked is the one connected to), plain http only to loopback and only where private targets are
 * allowed, no redirects, a hard timeout and a size cap enforced while reading.
 */
export function guardedFetch(options: GuardedFetchOptions): (url: string | URL, init?: FetchInit) => Promise<Response> {
  return async (url, init = {}) => {
    const target = new URL(String(url));
    const host = target.hostname.replace(/^\[|\]$/g, "");
    if (target.protocol !== "https:" && !(target.protocol === "http:" && options.allowPrivate && isLoopbackHost(host))) {
      throw new BlockedTargetError(`${target.protocol}//${target.host}`);
    }
    if (net.isIP(host) && isPrivateAddress(host) && !options.allowPrivate) throw new BlockedTargetError(host);
    const body = await bodyBytes(init.body);
    const headers = Object.fromEntries(new Headers(init.headers ?? {}).entries());
    const client = target.protocol === "https:" ? https : http;
    const signal = init.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(options.timeoutMs)]) : AbortSignal.timeout(options.timeoutMs);
    return new Promise<Response>((resolve, reject) => {
      const request = client.request(
        target,
        {
          method: init.method ?? "GET",
          headers: { "user-agent": options.userAgent, ...headers, ...(body ? { "content-length": String(body.length) } : {}) },
          lookup: guardedLookup(options.allowPrivate),
          signal,
        },
        (response) => {
          if (Number(response.headers["content-length"] ?? 0) > options.maxBytes) {
            response.destroy();
            return reject(new ResponseTooLargeError(options.maxBytes));
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > options.maxBytes) {
              response.destroy();
              reject(new ResponseTooLargeError(options.maxBytes));
            } else chunks.push(chunk);
          });
          response.on("end", () => {
            const answer = new Headers();
            for (const [name, value] of Object.entries(response.headers)) {
              for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) answer.append(name, one);
            }
            const status = response.statusCode ?? 502;
            const nullBody = status === 204 || status === 304 || (status >= 100 && status < 200);
            resolve(new Response(nullBody ? null : Buffer.concat(chunks), { status, statusText: response.statusMessage, headers: answer }));
          });
          response.on("error", reject);
        },
      );
      // like WHATWG fetch, a transport failure is a TypeError; the guard's own refusals keep their class
      request.on("error", (error) =>
        reject(error instanceof BlockedTargetError ? error : new TypeError(error.name === "AbortError" ? `no answer within ${options.timeoutMs / 1000} s` : "fetch failed", { cause: error })),
      );
      request.end(body ?? undefined);
    });
  };
}

function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || (net.isIPv4(host) && host.startsWith("127."));
}

async function bodyBytes(body: unknown): Promise<Buffer | null> {
  if (body === undefined || body === null) return null;
  if (typeof body === "string" || body instanceof URLSearchParams) return Buffer.from(String(body));
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
  return Buffer.from(await new Response(body as BodyInit).arrayBuffer());
}
