import * as asn1js from "asn1js";
import { isContextTag } from "@/lib/pki/asn1-reading";
import { findDerViolation } from "@/lib/pki/find-der-violation";
import type { TimeStampFailure } from "@/lib/tsa/time-stamp-failure-info";
import { timeStampHashAlgorithmByOid, timeStampHashAlgorithms } from "@/lib/tsa/time-stamp-hash-algorithms";
import type { ParsedTimeStampRequest, TimeStampRequest } from "@/lib/tsa/parse-time-stamp-request";

/*
 * The TimeStampReq reader as it was before it read the DER tree (lib/pki/der-tree.ts): asn1js's
 * tree, walked by hand. Kept only as the reference of the differential test
 * (parse-time-stamp-request-differential.test.ts), which holds the reader to every answer of this one.
 */

class RequestRejected extends Error {
  constructor(
    readonly failure: TimeStampFailure,
    reason: string,
  ) {
    super(reason);
  }
}

const isUniversal = (block: asn1js.AsnType | undefined, tagNumber: number) =>
  block !== undefined && block.idBlock.tagClass === 1 && block.idBlock.tagNumber === tagNumber;

function integerValue(content: Uint8Array): bigint {
  let value = 0n;
  for (const byte of content) value = (value << 8n) | BigInt(byte);
  // two's complement: a set top bit means negative
  return content.length > 0 && content[0]! & 0x80 ? value - (1n << BigInt(content.length * 8)) : value;
}

function parseMessageImprint(block: asn1js.AsnType | undefined): Pick<TimeStampRequest, "hashAlgorithm" | "digest" | "messageImprintDer"> {
  if (!(block instanceof asn1js.Sequence) || block.valueBlock.value.length !== 2) {
    throw new RequestRejected("badDataFormat", "messageImprint is not a SEQUENCE of algorithm and digest");
  }
  const [algorithm, digest] = block.valueBlock.value;
  if (!(algorithm instanceof asn1js.Sequence) || !(algorithm.valueBlock.value[0] instanceof asn1js.ObjectIdentifier)) {
    throw new RequestRejected("badDataFormat", "Malformed hash AlgorithmIdentifier");
  }
  if (!(digest instanceof asn1js.OctetString) || digest.valueBlock.isConstructed) {
    throw new RequestRejected("badDataFormat", "hashedMessage is not an OCTET STRING");
  }
  const oid = algorithm.valueBlock.value[0].valueBlock.toString();
  const hashAlgorithm = timeStampHashAlgorithmByOid(oid);
  if (!hashAlgorithm) throw new RequestRejected("badAlg", `Unsupported hash algorithm ${oid}`);
  // parameters may be absent or NULL (RFC 5754 allows both); anything else is not SHA-2
  const parameters = algorithm.valueBlock.value.slice(1);
  if (parameters.length > 1 || (parameters.length === 1 && !(parameters[0] instanceof asn1js.Null))) {
    throw new RequestRejected("badAlg", "Unexpected hash algorithm parameters");
  }
  const digestBytes = new Uint8Array(digest.valueBlock.valueHexView);
  if (digestBytes.length !== timeStampHashAlgorithms[hashAlgorithm].length) {
    throw new RequestRejected("badDataFormat", `A ${hashAlgorithm} imprint must be ${timeStampHashAlgorithms[hashAlgorithm].length} bytes`);
  }
  return { hashAlgorithm, digest: digestBytes, messageImprintDer: new Uint8Array(block.valueBeforeDecodeView) };
}

/** We implement no request extension, so any critical one must be refused (RFC 3161 2.4.1). */
function checkExtensions(block: asn1js.AsnType): void {
  if (!(block instanceof asn1js.Constructed)) throw new RequestRejected("badDataFormat", "Malformed extensions");
  for (const extension of block.valueBlock.value) {
    if (!(extension instanceof asn1js.Sequence)) throw new RequestRejected("badDataFormat", "Malformed extension");
    const [id, second, third] = extension.valueBlock.value;
    if (!(id instanceof asn1js.ObjectIdentifier)) throw new RequestRejected("badDataFormat", "Malformed extension");
    const critical = second instanceof asn1js.Boolean ? second.valueBlock.value : false;
    const value = second instanceof asn1js.Boolean ? third : second;
    if (!(value instanceof asn1js.OctetString)) throw new RequestRejected("badDataFormat", "Malformed extension value");
    if (critical) throw new RequestRejected("unacceptedExtension", `Unsupported critical extension ${id.valueBlock.toString()}`);
  }
}

function parse(der: Uint8Array): TimeStampRequest {
  if (der.length === 0) throw new RequestRejected("badDataFormat", "Empty request");
  // the message imprint and nonce are copied into the signed TSTInfo, which must stay DER
  const violation = findDerViolation(der);
  if (violation) throw new RequestRejected("badDataFormat", `The request is not DER: ${violation}`);
  const parsed = asn1js.fromBER(der);
  if (parsed.result.error || parsed.offset !== der.length) throw new RequestRejected("badDataFormat", "The request is not valid DER");
  if (!(parsed.result instanceof asn1js.Sequence)) throw new RequestRejected("badDataFormat", "TimeStampReq is not a SEQUENCE");
  const fields = parsed.result.valueBlock.value;

  const version = fields[0];
  if (!(version instanceof asn1js.Integer) || integerValue(version.valueBlock.valueHexView) !== 1n) {
    throw new RequestRejected("badDataFormat", "Unsupported request version");
  }
  const request: TimeStampRequest = { ...parseMessageImprint(fields[1]), certReq: false };

  // the optional fields must appear in this order, each at most once
  let index = 2;
  if (isUniversal(fields[index], 6)) {
    request.policyOid = (fields[index++] as asn1js.ObjectIdentifier).valueBlock.toString();
  }
  if (isUniversal(fields[index], 2)) {
    const content = new Uint8Array((fields[index++] as asn1js.Integer).valueBlock.valueHexView);
    request.nonce = { contentDer: content, value: integerValue(content) };
  }
  if (isUniversal(fields[index], 1)) {
    request.certReq = (fields[index++] as asn1js.Boolean).valueBlock.value;
  }
  const extensions = fields[index];
  if (isContextTag(extensions, 0)) {
    checkExtensions(extensions);
    index++;
  }
  if (index !== fields.length) throw new RequestRejected("badDataFormat", "Unexpected fields in the request");
  return request;
}

/** Parses a DER TimeStampReq (RFC 3161 2.4.1); never throws, a bad request comes back with its failure info. */
export function parseTimeStampRequestWithAsn1js(der: Uint8Array): ParsedTimeStampRequest {
  try {
    return { ok: true, request: parse(der) };
  } catch (error) {
    if (error instanceof RequestRejected) return { ok: false, failure: error.failure, reason: error.message };
    // asn1js can throw on pathological input; that is still the client's bad data
    return { ok: false, failure: "badDataFormat", reason: "The request could not be parsed" };
  }
}
