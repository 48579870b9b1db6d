import { parseDer, type DerNode } from "@/lib/pki/der-tree";
import { findDerViolation } from "@/lib/pki/find-der-violation";
import type { TimeStampFailure } from "@/lib/tsa/time-stamp-failure-info";
import { type TimeStampHashAlgorithm, timeStampHashAlgorithmByOid, timeStampHashAlgorithms } from "@/lib/tsa/time-stamp-hash-algorithms";

export type TimeStampRequest = {
  hashAlgorithm: TimeStampHashAlgorithm;
  digest: Uint8Array;
  /** The request's MessageImprint exactly as received, to be copied into TSTInfo. */
  messageImprintDer: Uint8Array;
  policyOid?: string;
  /** Nonce as the INTEGER's content octets (echoed byte for byte) and as a number. */
  nonce?: { contentDer: Uint8Array; value: bigint };
  certReq: boolean;
};

export type ParsedTimeStampRequest =
  | { ok: true; request: TimeStampRequest }
  | { ok: false; failure: TimeStampFailure; reason: string };

class RequestRejected extends Error {
  constructor(
    readonly failure: TimeStampFailure,
    reason: string,
  ) {
    super(reason);
  }
}

// The request is read from the DER tree (der-tree.ts), the one the CMS readers walk: strict DER read
// directly, anything else as asn1js reads it. Each test below is the asn1js type test it replaces
// (parse-time-stamp-request-differential.test.ts holds the two readers to the same answers).

/** A universal tag asn1js reads as its type whatever the form bit (BOOLEAN, INTEGER, OID). */
const isUniversal = (block: DerNode | undefined, tagNumber: number) => block !== undefined && block.tagClass === 1 && block.tagNumber === tagNumber;

/** asn1js's Constructed, which its SEQUENCE and SET are too. */
const isConstructed = (block: DerNode | undefined) => block?.kind === "sequence" || block?.kind === "set" || block?.kind === "constructed";

/** asn1js's BOOLEAN value: true when any content octet is not zero. */
const booleanValue = (block: DerNode) => block.content.some((octet) => octet !== 0);

function integerValue(content: Uint8Array): bigint {
  let value = 0n;
  for (const byte of content) value = (value << 8n) | BigInt(byte);
  // two's complement: a set top bit means negative
  return content.length > 0 && content[0]! & 0x80 ? value - (1n << BigInt(content.length * 8)) : value;
}

function parseMessageImprint(block: DerNode | undefined): Pick<TimeStampRequest, "hashAlgorithm" | "digest" | "messageImprintDer"> {
  if (block?.kind !== "sequence" || block.children.length !== 2) {
    throw new RequestRejected("badDataFormat", "messageImprint is not a SEQUENCE of algorithm and digest");
  }
  const [algorithm, digest] = block.children;
  if (algorithm.kind !== "sequence" || algorithm.children[0]?.kind !== "oid") {
    throw new RequestRejected("badDataFormat", "Malformed hash AlgorithmIdentifier");
  }
  if (digest.kind !== "octetString" || digest.constructed) {
    throw new RequestRejected("badDataFormat", "hashedMessage is not an OCTET STRING");
  }
  const oid = algorithm.children[0].oid!;
  const hashAlgorithm = timeStampHashAlgorithmByOid(oid);
  if (!hashAlgorithm) throw new RequestRejected("badAlg", `Unsupported hash algorithm ${oid}`);
  // parameters may be absent or NULL (RFC 5754 allows both); anything else is not SHA-2
  const parameters = algorithm.children.slice(1);
  if (parameters.length > 1 || (parameters.length === 1 && !isUniversal(parameters[0], 5))) {
    throw new RequestRejected("badAlg", "Unexpected hash algorithm parameters");
  }
  const digestBytes = new Uint8Array(digest.content);
  if (digestBytes.length !== timeStampHashAlgorithms[hashAlgorithm].length) {
    throw new RequestRejected("badDataFormat", `A ${hashAlgorithm} imprint must be ${timeStampHashAlgorithms[hashAlgorithm].length} bytes`);
  }
  return { hashAlgorithm, digest: digestBytes, messageImprintDer: new Uint8Array(block.bytes) };
}

/** We implement no request extension, so any critical one must be refused (RFC 3161 2.4.1). */
function checkExtensions(block: DerNode): void {
  if (!isConstructed(block)) throw new RequestRejected("badDataFormat", "Malformed extensions");
  for (const extension of block.children) {
    if (extension.kind !== "sequence") throw new RequestRejected("badDataFormat", "Malformed extension");
    const [id, second, third] = extension.children;
    if (id?.kind !== "oid") throw new RequestRejected("badDataFormat", "Malformed extension");
    const isBoolean = isUniversal(second, 1);
    const critical = isBoolean ? booleanValue(second!) : false;
    const value = isBoolean ? third : second;
    if (value?.kind !== "octetString") throw new RequestRejected("badDataFormat", "Malformed extension value");
    if (critical) throw new RequestRejected("unacceptedExtension", `Unsupported critical extension ${id.oid}`);
  }
}

function parse(der: Uint8Array): TimeStampRequest {
  if (der.length === 0) throw new RequestRejected("badDataFormat", "Empty request");
  // the message imprint and nonce are copied into the signed TSTInfo, which must stay DER
  const violation = findDerViolation(der);
  if (violation) throw new RequestRejected("badDataFormat", `The request is not DER: ${violation}`);
  const parsed = parseDer(der);
  if (!parsed || parsed.end !== der.length) throw new RequestRejected("badDataFormat", "The request is not valid DER");
  if (parsed.node.kind !== "sequence") throw new RequestRejected("badDataFormat", "TimeStampReq is not a SEQUENCE");
  const fields = parsed.node.children;

  const version = fields[0];
  if (version?.kind !== "integer" || integerValue(version.content) !== 1n) {
    throw new RequestRejected("badDataFormat", "Unsupported request version");
  }
  const request: TimeStampRequest = { ...parseMessageImprint(fields[1]), certReq: false };

  // the optional fields must appear in this order, each at most once
  let index = 2;
  if (isUniversal(fields[index], 6)) {
    request.policyOid = fields[index++].oid!;
  }
  if (isUniversal(fields[index], 2)) {
    const content = new Uint8Array(fields[index++].content);
    request.nonce = { contentDer: content, value: integerValue(content) };
  }
  if (isUniversal(fields[index], 1)) {
    request.certReq = booleanValue(fields[index++]);
  }
  const extensions = fields[index];
  if (extensions?.tagClass === 3 && extensions.tagNumber === 0) {
    checkExtensions(extensions);
    index++;
  }
  if (index !== fields.length) throw new RequestRejected("badDataFormat", "Unexpected fields in the request");
  return request;
}

/** Parses a DER TimeStampReq (RFC 3161 2.4.1); never throws, a bad request comes back with its failure info. */
export function parseTimeStampRequest(der: Uint8Array): ParsedTimeStampRequest {
  try {
    return { ok: true, request: parse(der) };
  } catch (error) {
    if (error instanceof RequestRejected) return { ok: false, failure: error.failure, reason: error.message };
    // asn1js (behind the tree, for what is not strict DER) can throw on pathological input; that is still the client's bad data
    return { ok: false, failure: "badDataFormat", reason: "The request could not be parsed" };
  }
}
