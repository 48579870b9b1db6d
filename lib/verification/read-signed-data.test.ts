import * as pkijs from "pkijs";
import { beforeAll, describe, expect, test } from "vitest";
import { locateSignature } from "./testing/forge-pdf";
import { makeGenuineOutputs, type GenuineOutputs } from "./testing/make-genuine-outputs";
import { readSignedData as readAnySignedData } from "@/lib/pki/read-signed-data";
import { readCertificate } from "@/lib/pki/check-pki-signatures";

/** The verifier reads with its cached X.509 reader. */
const readSignedData = (bytes: Uint8Array) => readAnySignedData(bytes, { readCertificate });

let genuine: GenuineOutputs;

beforeAll(async () => {
  genuine = await makeGenuineOutputs();
}, 120_000);

function contentsOf(pdf: Uint8Array, index: number): Uint8Array {
  const at = locateSignature(pdf, index);
  return Buffer.from(Buffer.from(pdf.subarray(at.contentsStart + 1, at.contentsEnd - 1)).toString("latin1"), "hex");
}

/** What the reader returned before it took the certificates out itself: pkijs's own reading, encoded again. */
function pkijsCertificates(cms: Uint8Array): Buffer[] {
  const signedData = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(new Uint8Array(cms)).content });
  return (signedData.certificates ?? []).filter((c) => c instanceof pkijs.Certificate).map((c) => Buffer.from(c.toSchema().toBER(false)));
}

describe("certificates of a CMS", () => {
  test("are the certificates pkijs reads, byte for byte, in order, for two signatures and a document time-stamp", () => {
    for (const index of [0, 1, 2]) {
      const reading = readSignedData(contentsOf(genuine.twoSignersLta, index));
      if (index < 2) expect(reading.certificatesDer.length).toBeGreaterThanOrEqual(2);
      expect(reading.certificatesDer.map((der) => Buffer.from(der))).toEqual(pkijsCertificates(reading.der));
      // the rest of the SignedData is still read by pkijs
      expect(reading.signatureValue.length).toBeGreaterThan(0);
    }
  });

  test("a certificate that does not read as one makes the whole CMS unreadable, as before", () => {
    const cms = Buffer.from(readSignedData(contentsOf(genuine.twoSignersLta, 0)).der);
    const certificate = Buffer.from(readSignedData(cms).certificatesDer[0]);
    const at = cms.indexOf(certificate);
    expect(at).toBeGreaterThan(0);
    // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version, serialNumber INTEGER, ...
    const serialTag = at + 4 + 4 + 5;
    expect(cms[serialTag]).toBe(0x02);
    const broken = Buffer.from(cms);
    broken[serialTag] = 0x01; // a BOOLEAN where the serial number belongs
    expect(() => pkijsCertificates(broken)).toThrow();
    expect(() => readSignedData(broken)).toThrow();
  });
});
