import { buildTimeStampRequest, timeStampNonce } from "@/lib/tsa/build-time-stamp-request";
import { verifyCmsSignature } from "@/lib/pki/verify-cms-signature";
import { TsaError } from "@/lib/tsa/errors";
import { readTimeStampResponse } from "@/lib/tsa/read-time-stamp-response";
import { timeStampHashAlgorithms } from "@/lib/tsa/time-stamp-hash-algorithms";

export type ExternalTimeStampOptions = {
  /** Ask the TSA for this policy; by default the TSA chooses. */
  policyOid?: string;
  timeoutMs?: number;
  /** Extra headers, e.g. Authorization for TSAs that require an account. */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
};

const maxResponseBytes = 1024 * 1024;

async function post(url: string, body: Uint8Array, options: ExternalTimeStampOptions): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      method: "POST",
      headers: { ...options.headers, "Content-Type": "application/timestamp-query", Accept: "application/timestamp-reply" },
      body: Buffer.from(body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
  } catch (error) {
    throw new TsaError("TSA_UNREACHABLE", `The TSA at ${url} could not be reached`, { cause: error });
  }
  if (!response.ok) throw new TsaError("TSA_HTTP_ERROR", `The TSA answered HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length > maxResponseBytes) throw new TsaError("TSA_INVALID_RESPONSE", "The TSA response is too large");
  return bytes;
}

function verifyTokenSignature(tokenDer: Uint8Array): void {
  try {
    verifyCmsSignature(tokenDer);
  } catch (error) {
    throw new TsaError("TSA_INVALID_RESPONSE", "The time-stamp token signature is invalid", { cause: error });
  }
}

/**
 * Gets an RFC 3161 TimeStampToken for a SHA-256 digest from an external TSA over HTTP and checks
 * that it answers this request (status, imprint, nonce, policy) and that its signature holds.
 * Trust in the TSA certificate chain is left to the validation that consumes the token.
 */
export async function requestExternalTimeStamp(url: string, digest: Uint8Array, options: ExternalTimeStampOptions = {}): Promise<Uint8Array> {
  if (digest.length !== 32) throw new TypeError("digest must be a SHA-256 value (32 bytes)");
  const nonce = timeStampNonce();
  const responseDer = await post(url, buildTimeStampRequest(digest, nonce, options.policyOid), options);

  const response = readTimeStampResponse(responseDer);
  if (response.status !== 0 && response.status !== 1) {
    const detail = [...response.failures, ...response.statusText].join(", ");
    throw new TsaError("TSA_REJECTED", `The TSA refused the request (status ${response.status}${detail ? `: ${detail}` : ""})`);
  }
  const { tokenDer, tstInfo } = response;
  if (!tokenDer || !tstInfo) throw new TsaError("TSA_INVALID_RESPONSE", "A granted response carries no token");
  if (tstInfo.hashAlgorithmOid !== timeStampHashAlgorithms["SHA-256"].oid || !Buffer.from(tstInfo.imprint).equals(digest)) {
    throw new TsaError("TSA_RESPONSE_MISMATCH", "The token stamps a different imprint");
  }
  if (!tstInfo.nonceContentDer || !Buffer.from(tstInfo.nonceContentDer).equals(nonce)) {
    throw new TsaError("TSA_RESPONSE_MISMATCH", "The token does not echo our nonce");
  }
  if (options.policyOid && tstInfo.policyOid !== options.policyOid) {
    throw new TsaError("TSA_RESPONSE_MISMATCH", `The token has policy ${tstInfo.policyOid}, not ${options.policyOid}`);
  }
  verifyTokenSignature(tokenDer);
  return tokenDer;
}
