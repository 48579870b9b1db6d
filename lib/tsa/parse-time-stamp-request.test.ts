import { describe, expect, it } from "vitest";
import { der } from "@/lib/pki/der-encoder";
import { oids } from "@/lib/pki/object-identifiers";
import { parseTimeStampRequest } from "@/lib/tsa/parse-time-stamp-request";

const imprint = (algorithm: Uint8Array, length = 32) => der.sequence(algorithm, der.octetString(new Uint8Array(length).fill(1)));
const sha256 = der.sequence(der.oid(oids.sha256));
const sha256Null = der.sequence(der.oid(oids.sha256), der.null());
const extension = (critical: boolean) => der.sequence(der.oid("1.2.3.4"), ...(critical ? [der.boolean(true)] : []), der.octetString(der.null()));

describe("parseTimeStampRequest", () => {
  it("reads every field", () => {
    const request = der.sequence(der.integer(1), imprint(sha256Null, 32), der.oid("1.2.3.9"), der.integer(Uint8Array.of(0, 0xff, 1)), der.boolean(true), der.tlv(0xa0, extension(false)));
    const parsed = parseTimeStampRequest(request);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.request).toMatchObject({ hashAlgorithm: "SHA-256", policyOid: "1.2.3.9", certReq: true });
    expect(parsed.request.nonce!.value).toBe(0xff01n);
    expect([...parsed.request.nonce!.contentDer]).toEqual([0, 0xff, 1]);
    expect(Buffer.from(parsed.request.messageImprintDer).equals(imprint(sha256Null, 32))).toBe(true);
  });

  it.each([
    { name: "SHA-256 without NULL", request: der.sequence(der.integer(1), imprint(sha256)), algorithm: "SHA-256" },
    { name: "SHA-384", request: der.sequence(der.integer(1), imprint(der.sequence(der.oid(oids.sha384)), 48)), algorithm: "SHA-384" },
    { name: "SHA-512 with NULL", request: der.sequence(der.integer(1), imprint(der.sequence(der.oid(oids.sha512), der.null()), 64)), algorithm: "SHA-512" },
  ])("accepts $name with certReq defaulting to false", ({ request, algorithm }) => {
    const parsed = parseTimeStampRequest(request);
    expect(parsed).toMatchObject({ ok: true, request: { hashAlgorithm: algorithm, certReq: false } });
  });

  it.each([
    { name: "SHA-1", request: der.sequence(der.integer(1), imprint(der.sequence(der.oid(oids.sha1), der.null()), 20)), failure: "badAlg" },
    { name: "MD5", request: der.sequence(der.integer(1), imprint(der.sequence(der.oid(oids.md5), der.null()), 16)), failure: "badAlg" },
    { name: "non-NULL hash parameters", request: der.sequence(der.integer(1), imprint(der.sequence(der.oid(oids.sha256), der.integer(1)))), failure: "badAlg" },
    { name: "short imprint", request: der.sequence(der.integer(1), imprint(sha256, 31)), failure: "badDataFormat" },
    { name: "missing imprint", request: der.sequence(der.integer(1)), failure: "badDataFormat" },
    { name: "fields out of order", request: der.sequence(der.integer(1), imprint(sha256), der.integer(5), der.oid("1.2.3")), failure: "badDataFormat" },
    { name: "duplicate nonce", request: der.sequence(der.integer(1), imprint(sha256), der.integer(5), der.integer(6)), failure: "badDataFormat" },
    { name: "not a SEQUENCE", request: der.set(der.integer(1)), failure: "badDataFormat" },
    { name: "truncated DER", request: der.sequence(der.integer(1), imprint(sha256)).subarray(0, 20), failure: "badDataFormat" },
    { name: "critical extension", request: der.sequence(der.integer(1), imprint(sha256), der.tlv(0xa0, extension(false), extension(true))), failure: "unacceptedExtension" },
    { name: "random bytes", request: Uint8Array.from({ length: 64 }, (_, i) => (i * 37) & 0xff), failure: "badDataFormat" },
  ])("refuses $name with $failure", ({ request, failure }) => {
    expect(parseTimeStampRequest(request)).toMatchObject({ ok: false, failure });
  });

  describe("BER is refused with badDataFormat: what is copied into the signed TSTInfo must be DER", () => {
    const good = der.sequence(der.integer(1), imprint(sha256), der.integer(Uint8Array.of(0x12, 0x34)), der.boolean(true));
    const hex = Buffer.from(good).toString("hex");
    it.each([
      { name: "indefinite length", request: Buffer.from(`3080${hex.slice(4)}0000`, "hex") },
      { name: "long-form length for a short value", request: Buffer.from(`3081${hex.slice(2)}`, "hex") },
      { name: "BOOLEAN TRUE as 01", request: Buffer.from(hex.replace(/0101ff$/, "010101"), "hex") },
      { name: "INTEGER with a redundant leading zero", request: Buffer.from(hex.replace("02021234", "0203001234").replace(/^30([0-9a-f]{2})/, (_m, l) => `30${(parseInt(l, 16) + 1).toString(16).padStart(2, "0")}`), "hex") },
    ])("$name", ({ request }) => {
      const parsed = parseTimeStampRequest(new Uint8Array(request));
      expect(parsed).toMatchObject({ ok: false, failure: "badDataFormat" });
      if (!parsed.ok) expect(parsed.reason).toContain("not DER");
    });

    it("the same request in DER is accepted", () => {
      expect(parseTimeStampRequest(good).ok).toBe(true);
    });
  });
});
