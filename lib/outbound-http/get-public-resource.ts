import http from "node:http";
import https from "node:https";
import net from "node:net";
import { BlockedTargetError, guardedLookup, isPrivateAddress } from "./post-webhook";

/**
 * GETs a small resource (a CRL, an OCSP answer) from an address a certificate names, with the same
 * guard as callbacks (no private, loopback or link-local targets unless allowed, checked on the
 * address connected to), a hard timeout, no redirects and a size cap enforced while reading.
 */
export function getPublicResource(url: string, options: { allowPrivate: boolean; timeoutMs: number; maxBytes: number }): Promise<Uint8Array> {
  const target = new URL(url);
  if (target.protocol !== "http:" && target.protocol !== "https:") return Promise.reject(new Error(`unsupported scheme ${target.protocol}`));
  const host = target.hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host) && isPrivateAddress(host) && !options.allowPrivate) return Promise.reject(new BlockedTargetError(host));
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(
      target,
      { headers: { "user-agent": "FirmaViva-Revocation/1" }, lookup: guardedLookup(options.allowPrivate), signal: AbortSignal.timeout(options.timeoutMs) },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          return reject(new Error(`HTTP ${response.statusCode}`));
        }
        const declared = Number(response.headers["content-length"] ?? 0);
        if (declared > options.maxBytes) {
          response.destroy();
          return reject(new Error(`larger than ${options.maxBytes} bytes`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            response.destroy();
            reject(new Error(`larger than ${options.maxBytes} bytes`));
          } else chunks.push(chunk);
        });
        response.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
        response.on("error", reject);
      },
    );
    request.on("error", (error) => reject(error.name === "AbortError" ? new Error(`no answer within ${options.timeoutMs / 1000} s`) : error));
  });
}
