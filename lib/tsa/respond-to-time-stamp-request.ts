import { der } from "@/lib/pki/der-encoder";
import { createTimeStampToken, type TimeStampAuthority } from "@/lib/tsa/create-time-stamp-token";
import { parseTimeStampRequest } from "@/lib/tsa/parse-time-stamp-request";
import { type TimeStampFailure, timeStampFailureBits } from "@/lib/tsa/time-stamp-failure-info";

export type TimeStampResponderOptions = {
  tsa: TimeStampAuthority;
  /** Policy of every token unless the request names another accepted one. */
  policyOid: string;
  /** Policies a request may ask for; defaults to [policyOid]. */
  acceptedPolicies?: string[];
  /** The caller's durable, strictly increasing counter (e.g. a database sequence). */
  nextSerialNumber: () => Promise<bigint>;
  now?: () => Date;
  accuracySeconds?: number;
  includeTsaName?: boolean;
};

const pkiStatus = { granted: 0, rejection: 2 } as const;

/** The DER TimeStampResp, and why it is a rejection when it is one (so callers need not parse their own reply). */
export type TimeStampAnswer = { reply: Uint8Array; rejection?: { failure: TimeStampFailure; reason: string } };

function rejection(failure: TimeStampFailure, reason: string): TimeStampAnswer {
  const statusInfo = der.sequence(
    der.integer(pkiStatus.rejection),
    der.sequence(der.utf8String(reason)),
    der.namedBitString([timeStampFailureBits[failure]]),
  );
  return { reply: der.sequence(statusInfo), rejection: { failure, reason } };
}

/**
 * Answers a DER TimeStampReq with a DER TimeStampResp (RFC 3161). A bad request never throws: it
 * gets a rejection with failInfo. Failures of our own (serial counter, key) do throw, so the caller
 * logs them and answers 500 instead of hiding them in a systemFailure response.
 */
export async function respondToTimeStampRequest(requestDer: Uint8Array, options: TimeStampResponderOptions): Promise<Uint8Array> {
  return (await answerTimeStampRequestDer(requestDer, options)).reply;
}

/** respondToTimeStampRequest, with the rejection reason beside the reply. */
export async function answerTimeStampRequestDer(requestDer: Uint8Array, options: TimeStampResponderOptions): Promise<TimeStampAnswer> {
  const parsed = parseTimeStampRequest(requestDer);
  if (!parsed.ok) return rejection(parsed.failure, parsed.reason);
  const { request } = parsed;

  const acceptedPolicies = options.acceptedPolicies ?? [options.policyOid];
  if (request.policyOid !== undefined && !acceptedPolicies.includes(request.policyOid)) {
    return rejection("unacceptedPolicy", `Policy ${request.policyOid} is not accepted`);
  }

  const token = await createTimeStampToken({
    digest: request.digest,
    hashAlgorithm: request.hashAlgorithm,
    messageImprintDer: request.messageImprintDer,
    tsa: options.tsa,
    serialNumber: await options.nextSerialNumber(),
    policyOid: request.policyOid ?? options.policyOid,
    // RFC 3161 2.4.1: the certificate goes in only when the client asked for it
    includeCertificates: request.certReq,
    nonceDer: request.nonce?.contentDer,
    now: options.now?.() ?? new Date(),
    accuracySeconds: options.accuracySeconds,
    includeTsaName: options.includeTsaName,
  });
  return { reply: der.sequence(der.sequence(der.integer(pkiStatus.granted)), token) };
}
