import { describe, expect, it } from "vitest";
import { der } from "@/lib/pki/der-encoder";
import { readStrictDer } from "@/lib/pki/der-tree";
import { findDerViolation } from "@/lib/pki/find-der-violation";
import { oids } from "@/lib/pki/object-identifiers";
import { parseTimeStampRequest } from "@/lib/tsa/parse-time-stamp-request";
import { parseTimeStampRequestWithAsn1js } from "@/lib/tsa/testing/parse-time-stamp-request-with-asn1js";

// parseTimeStampRequest reads the DER tree (strict DER directly, anything else through asn1js); the
// reader it replaced walked asn1js's tree. Every request, well formed or mutated, must get the same
// answer from both: accepted with the same fields, or refused with the same failure and reason.

const imprint = (algorithm: Uint8Array, length: number) => der.sequence(algorithm, der.octetString(Uint8Array.from({ length }, (_, i) => (i * 29 + 7) & 0xff)));
const algorithms = [
  { id: der.sequence(der.oid(oids.sha256)), length: 32 },
  { id: der.sequence(der.oid(oids.sha256), der.null()), length: 32 },
  { id: der.sequence(der.oid(oids.sha384)), length: 48 },
  { id: der.sequence(der.oid(oids.sha512), der.null()), length: 64 },
  { id: der.sequence(der.oid(oids.sha1), der.null()), length: 20 },
];
const extension = (critical: boolean | undefined) => der.sequence(der.oid("1.2.3.4"), ...(critical === undefined ? [] : [der.boolean(critical)]), der.octetString(der.null()));
const nonces = [Uint8Array.of(1), Uint8Array.of(0, 0x80), Uint8Array.of(0xff, 0x01), Uint8Array.from({ length: 8 }, (_, i) => 0x11 * (i + 1))];

/** Requests of every shape the reader accepts or refuses on purpose: optional fields present or not, extensions critical or not. */
function wellFormedRequests(): Uint8Array[] {
  const requests: Uint8Array[] = [];
  for (const [a, algorithm] of algorithms.entries()) {
    for (let shape = 0; shape < 8; shape++) {
      const nonce = nonces[(a + shape) % nonces.length];
      requests.push(
        der.sequence(
          der.integer(1),
          imprint(algorithm.id, algorithm.length),
          ...(shape & 1 ? [der.oid("1.3.6.1.4.1.99999.1.1")] : []),
          ...(shape & 2 ? [der.integer(nonce)] : []),
          ...(shape & 4 ? [der.boolean(shape % 3 === 0)] : []),
          ...(shape === 7 ? [der.tlv(0xa0, extension(undefined), extension(false))] : shape === 6 ? [der.tlv(0xa0, extension(true))] : []),
        ),
      );
    }
  }
  return requests;
}

/** A deterministic stream of numbers in [0, 1). */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Every octet replaced by values that change tags, forms, lengths and contents; cut at every length; octets inserted and removed. */
function* mutationsOf(request: Uint8Array, random: () => number): Generator<Uint8Array> {
  for (let at = 0; at < request.length; at++) {
    const octet = request[at];
    for (const value of [0x00, 0xff, octet ^ 0x01, octet ^ 0x20, octet ^ 0x80, octet + 1, octet - 1, 0x05, 0x0a, 0x1f, 0x24, 0x22, 0x10, 0x80, 0x81]) {
      const mutated = new Uint8Array(request);
      mutated[at] = value & 0xff;
      yield mutated;
    }
    yield request.subarray(0, at);
    yield Uint8Array.from([...request.subarray(0, at), ...request.subarray(at + 1)]);
    yield Uint8Array.from([...request.subarray(0, at), Math.floor(random() * 256), ...request.subarray(at)]);
  }
}

/** The answer as a comparable value: bytes as hex, bigints as text. */
function answerOf(parse: (der: Uint8Array) => unknown, request: Uint8Array): string {
  return JSON.stringify(parse(new Uint8Array(request)), (_key, value: unknown) =>
    value instanceof Uint8Array ? Buffer.from(value).toString("hex") : typeof value === "bigint" ? value.toString() : value,
  );
}

describe("parseTimeStampRequest against the asn1js reader it replaced", () => {
  it("answers every well-formed request as the former reader did, and accepts and refuses among them", () => {
    const answers = wellFormedRequests().map((request) => {
      const answer = answerOf(parseTimeStampRequest, request);
      expect(answer).toBe(answerOf(parseTimeStampRequestWithAsn1js, request));
      return JSON.parse(answer) as { ok: boolean; failure?: string };
    });
    expect(answers.filter((answer) => answer.ok).length).toBeGreaterThan(20);
    expect(new Set(answers.flatMap((answer) => (answer.ok ? [] : [answer.failure])))).toEqual(new Set(["badAlg", "unacceptedExtension"]));
  });

  it("answers thousands of mutated requests as the former reader did, through both of the tree's paths", () => {
    const random = seeded(3161);
    let compared = 0;
    let accepted = 0;
    let derButNotStrict = 0;
    for (const request of wellFormedRequests()) {
      for (const mutated of mutationsOf(request, random)) {
        const answer = answerOf(parseTimeStampRequest, mutated);
        if (answer !== answerOf(parseTimeStampRequestWithAsn1js, mutated)) {
          expect({ request: Buffer.from(mutated).toString("hex"), answer }).toEqual({ request: Buffer.from(mutated).toString("hex"), answer: answerOf(parseTimeStampRequestWithAsn1js, mutated) });
        }
        compared++;
        if (answer.startsWith('{"ok":true')) accepted++;
        // what passes the DER check but not the strict reader is read by asn1js behind the tree
        if (!findDerViolation(mutated) && !readStrictDer(new Uint8Array(mutated))) derButNotStrict++;
      }
    }
    expect(compared).toBeGreaterThan(50_000);
    expect(accepted).toBeGreaterThan(1_000);
    expect(derButNotStrict).toBeGreaterThan(100);
  });

  it("answers random bytes and random requests with a valid header as the former reader did", () => {
    const random = seeded(42);
    for (let round = 0; round < 3_000; round++) {
      const body = Uint8Array.from({ length: Math.floor(random() * 120) }, () => Math.floor(random() * 256));
      const request = round % 2 === 0 ? body : der.sequence(der.integer(1), body);
      expect(answerOf(parseTimeStampRequest, request)).toBe(answerOf(parseTimeStampRequestWithAsn1js, request));
    }
  });
});
