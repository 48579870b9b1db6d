import { createHash } from "node:crypto";
import * as asn1js from "asn1js";
import { beforeAll, describe, expect, test } from "vitest";
import { createPkiHierarchy, type PkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { issueSignerCertificate } from "@/lib/pki/issue-certificate";
import { readCertificate } from "@/lib/pki/check-pki-signatures";
import { parseCmsAroundCertificates } from "@/lib/pki/parse-cms-around-certificates";
import { readSignedData } from "@/lib/pki/read-signed-data";
import { signCadesDetached } from "@/lib/pki/sign-cms-detached";

let pki: PkiHierarchy;
let cms: Uint8Array;

beforeAll(async () => {
  pki = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "https://crl.example.test" });
  const signer = await issueSignerCertificate(pki.issuing, { givenNames: "Rosa", lastNames: "Huamán", nationality: "PER", idType: "DNI", idNumber: "40506070", validityMinutes: 15, crlBaseUrl: "https://crl.example.test" });
  const digest = new Uint8Array(createHash("sha256").update("contents").digest());
  cms = await signCadesDetached({ digest, signer: { certificateDer: signer.certificateDer, privateKey: signer.privateKey, chainDer: [pki.issuing.certificateDer] } });
}, 60_000);

/** The certificates field's offset: ContentInfo, [0], SignedData, version, digestAlgorithms, encapContentInfo, then [0]. */
function certificateFieldOffset(der: Uint8Array): number {
  const signedData = ((asn1js.fromBER(new Uint8Array(der)).result as asn1js.Sequence).valueBlock.value[1] as asn1js.Constructed).valueBlock.value[0] as asn1js.Sequence;
  const field = signedData.valueBlock.value[3];
  expect(field.idBlock.tagClass).toBe(3);
  return field.valueBeforeDecodeView.byteOffset;
}

describe("parseCmsAroundCertificates", () => {
  test("leaves our CMS's certificates unparsed, as the exact bytes a whole parse finds, and the reading is unchanged", () => {
    const { parsed, certificatesDer } = parseCmsAroundCertificates(cms);
    expect(parsed.offset).toBe(cms.length);
    expect(certificatesDer).toHaveLength(2);
    const whole = ((asn1js.fromBER(new Uint8Array(cms)).result as asn1js.Sequence).valueBlock.value[1] as asn1js.Constructed).valueBlock.value[0] as asn1js.Sequence;
    const wholeCertificates = (whole.valueBlock.value[3] as asn1js.Constructed).valueBlock.value.map((block) => Buffer.from(block.valueBeforeDecodeView).toString("hex"));
    expect(certificatesDer!.map((der) => Buffer.from(der).toString("hex"))).toEqual(wholeCertificates);
    expect(wholeCertificates).toContain(Buffer.from(pki.issuing.certificateDer).toString("hex"));
  });

  test("parses a certificates field of indefinite length (BER) whole, and reads the same certificates from it", () => {
    const at = certificateFieldOffset(cms);
    expect([...cms.subarray(at, at + 2)]).toEqual([0xa0, 0x82]);
    const length = (cms[at + 2] << 8) | cms[at + 3];
    // a0 82 LL LL <certificates>  ->  a0 80 <certificates> 00 00: the same size, so no outer length changes
    const ber = Buffer.concat([cms.subarray(0, at), Buffer.from([0xa0, 0x80]), cms.subarray(at + 4, at + 4 + length), Buffer.from([0, 0]), cms.subarray(at + 4 + length)]);
    expect(ber.length).toBe(cms.length);
    expect(parseCmsAroundCertificates(ber).certificatesDer).toBeUndefined();
    expect(readSignedData(ber, { readCertificate }).certificatesDer).toEqual(readSignedData(cms, { readCertificate }).certificatesDer);
  });

  test("a field with more certificates than a CMS may carry is parsed whole, so asn1js's node limit still bounds it", () => {
    const at = certificateFieldOffset(cms);
    const length = (cms[at + 2] << 8) | cms[at + 3];
    // 70 empty SEQUENCEs where the certificates were, padded with one OCTET STRING to the same size
    const items = Buffer.alloc(140, 0);
    for (let i = 0; i < 140; i += 2) items[i] = 0x30;
    const filler = Buffer.concat([Buffer.from([0x04, 0x82, ((length - 144) >> 8) & 0xff, (length - 144) & 0xff]), Buffer.alloc(length - 144)]);
    const many = Buffer.concat([cms.subarray(0, at + 4), items, filler, cms.subarray(at + 4 + length)]);
    expect(many.length).toBe(cms.length);
    expect(parseCmsAroundCertificates(many).certificatesDer).toBeUndefined();
    expect(() => readSignedData(many)).toThrow(/too many certificates|certificate/);
  });

  test("a certificate broken inside is refused, with and without an X.509 reader, though its bytes were not parsed with the tree", () => {
    const certificate = Buffer.from(pki.issuing.certificateDer);
    const at = Buffer.from(cms).indexOf(certificate);
    expect(at).toBeGreaterThan(0);
    // Certificate { tbsCertificate { [0] version, serialNumber INTEGER ...: the serial's length octet
    // becomes 0xff, a long form with 127 length octets that no reader accepts (a short length that
    // merely runs on could, by chance of the random key and serial, land on a boundary and parse)
    const broken = Buffer.from(cms);
    const serialLength = at + 4 + 4 + 5 + 1;
    expect(broken[serialLength - 1]).toBe(0x02);
    broken[serialLength] = 0xff;
    expect(parseCmsAroundCertificates(broken).certificatesDer).toHaveLength(2);
    expect(() => readSignedData(broken)).toThrow(/unreadable certificate/);
    expect(() => readSignedData(broken, { readCertificate })).toThrow(/unreadable certificate/);
    // as before, when asn1js parsed the certificates with the tree and failed
    const whole = asn1js.fromBER(new Uint8Array(broken));
    expect(whole.offset === -1 || whole.result.error !== "").toBe(true);
  });
});
