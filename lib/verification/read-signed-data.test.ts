import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { buildCrl } from "@/lib/pki/build-crl";
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

/** The stamp's CMS with an adbe-revocationInfoArchival signed attribute holding `value` added (the signature no longer verifies; only reading is tested). */
function withArchival(value: asn1js.AsnType): Uint8Array {
  const info = pkijs.ContentInfo.fromBER(new Uint8Array(contentsOf(genuine.stamp, 0)));
  const signedData = new pkijs.SignedData({ schema: info.content });
  signedData.signerInfos[0].signedAttrs!.attributes.push(new pkijs.Attribute({ type: "1.2.840.113583.1.1.8", values: [value] }));
  return new Uint8Array(new pkijs.ContentInfo({ contentType: info.contentType, content: signedData.toSchema(true) }).toSchema().toBER(false));
}

describe("Adobe's adbe-revocationInfoArchival signed attribute (issue 41)", () => {
  test("its CRLs and OCSP responses are read as revocation data", async () => {
    const crl = await buildCrl(genuine.pki.issuing, { revoked: [], crlNumber: 7n, thisUpdate: new Date(), nextUpdate: new Date(Date.now() + 86_400_000) });
    const ocsp = new asn1js.Sequence({ value: [new asn1js.Enumerated({ value: 0 })] });
    const archival = new asn1js.Sequence({
      value: [
        new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: [new asn1js.Sequence({ value: [asn1js.fromBER(crl).result] })] }),
        new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 1 }, value: [new asn1js.Sequence({ value: [ocsp] })] }),
      ],
    });
    const reading = readSignedData(withArchival(archival));
    expect(reading.archivedCrlsDer.map((der) => Buffer.from(der).toString("hex"))).toEqual([Buffer.from(crl).toString("hex")]);
    expect(reading.archivedOcspsDer.map((der) => Buffer.from(der).toString("hex"))).toEqual([Buffer.from(ocsp.toBER(false)).toString("hex")]);
  });

  test("an archival value of another shape is no revocation data, and the CMS stays readable", () => {
    const reading = readSignedData(withArchival(new asn1js.Integer({ value: 5 })));
    expect(reading).toMatchObject({ archivedCrlsDer: [], archivedOcspsDer: [] });
  });
});
