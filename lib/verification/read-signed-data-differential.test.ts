import fs from "node:fs";
import path from "node:path";
import * as asn1js from "asn1js";
import { beforeAll, describe, expect, test } from "vitest";
import { locateSignature } from "./testing/forge-pdf";
import { makeGenuineOutputs, type GenuineOutputs } from "./testing/make-genuine-outputs";
import { readSignedData, readTimeStampToken } from "@/lib/pki/read-signed-data";
import { readCertificate } from "@/lib/pki/check-pki-signatures";
import { readSignedDataWithPkijs, readTstInfoWithPkijs } from "@/lib/pki/testing/read-signed-data-with-pkijs";
import { readTstInfo } from "@/lib/tsa/read-tst-info";
import { fixturePath } from "@/test/fixtures-dir";

// The reader walks the asn1js tree by hand where it once built pkijs objects. These tests hold it to
// the former reader on genuine CMSes and on thousands of mutated ones: it must refuse exactly what
// that refused and read the same fields from what both accept.

const REAL_WORLD = fixturePath("pdfs/real-world");

type Outcome = { refused: true } | { refused: false; reading: unknown };

/** Bytes as hex, dates as ISO text, bigints as text: readings compared as plain data. */
function plain(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString("hex");
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "invalid date" : value.toISOString();
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
  return value;
}

function outcomeOf(read: () => unknown): Outcome {
  try {
    return { refused: false, reading: plain(read()) };
  } catch {
    return { refused: true };
  }
}

/** Both readers on one input (each SignerInfo, the TSTInfo when it is a token); returns the current reader's verdict. */
function expectSameReading(cms: Uint8Array, label: string, { everySigner = false, withoutCertificateReader = false } = {}): Outcome {
  // the TSA response reader and verifyCmsSignature read without an X.509 reader: asn1js alone judges the certificates
  if (withoutCertificateReader) expect(outcomeOf(() => readSignedData(cms)), `${label}, no X.509 reader`).toEqual(outcomeOf(() => readSignedDataWithPkijs(cms)));
  const options = { readCertificate };
  const before = outcomeOf(() => readSignedDataWithPkijs(cms, options));
  const after = outcomeOf(() => readSignedData(cms, options));
  expect(after, label).toEqual(before);
  const second = { ...options, signerIndex: 1 };
  if (everySigner) expect(outcomeOf(() => readSignedData(cms, second)), `${label}, SignerInfo 1`).toEqual(outcomeOf(() => readSignedDataWithPkijs(cms, second)));
  if (!after.refused) {
    const reading = readSignedData(cms, options);
    expect(outcomeOf(() => readTstInfo(reading)), `${label}, TSTInfo`).toEqual(outcomeOf(() => readTstInfoWithPkijs(reading)));
    // a token read from the tree parsed with its CMS reads (or is refused) as its bytes alone
    for (const [index, tokenDer] of reading.timeStampTokensDer.entries()) {
      expect(outcomeOf(() => readTimeStampToken(reading, index, options)), `${label}, token ${index} from the tree`).toEqual(outcomeOf(() => readSignedData(tokenDer, options)));
    }
  }
  return after;
}

/** A small seeded generator, so a failure names an input that can be made again. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return (below: number) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % below) as number;
  };
}

/** The offset of every element's tag in the DER, certificates included but not their insides (which only @peculiar/x509 reads). */
function tagOffsets(der: Uint8Array): number[] {
  const bytes = new Uint8Array(der);
  const offsets: number[] = [];
  const visit = (block: asn1js.AsnType, insideCertificate: boolean, isCertificate = false) => {
    if (!insideCertificate) offsets.push(block.valueBeforeDecodeView.byteOffset - bytes.byteOffset);
    const children = (block.valueBlock as { value?: unknown } | undefined)?.value;
    if (!Array.isArray(children)) return;
    const certificates = block.idBlock.tagClass === 3 && block.idBlock.tagNumber === 0 && children.length > 0 && children.every((child) => child instanceof asn1js.Sequence && child.valueBlock.value.length === 3);
    for (const child of children as asn1js.AsnType[]) visit(child, insideCertificate || isCertificate, certificates);
  };
  visit(asn1js.fromBER(bytes, { parseEmbedded: false }).result, false);
  return offsets;
}

const OTHER_TAGS = [0x01, 0x02, 0x04, 0x05, 0x06, 0x13, 0x17, 0x18, 0x30, 0x31, 0x80, 0x81, 0xa0, 0xa1, 0xa2, 0xbf];

/** Every tag changed (its form flipped, and a few other tags), random bytes changed, and truncations. */
function mutationsOf(der: Uint8Array, random: (below: number) => number, randomBytes: number): [string, Uint8Array][] {
  const mutations: [string, Uint8Array][] = [];
  const changed = (at: number, value: number) => {
    const copy = new Uint8Array(der);
    copy[at] = value;
    return copy;
  };
  for (const at of tagOffsets(der)) {
    mutations.push([`tag at ${at} form flipped`, changed(at, der[at] ^ 0x20)]);
    for (let i = 0; i < 2; i++) {
      const tag = OTHER_TAGS[random(OTHER_TAGS.length)];
      if (tag !== der[at]) mutations.push([`tag at ${at} -> ${tag.toString(16)}`, changed(at, tag)]);
    }
    // the length octet right after the tag
    if (at + 1 < der.length) mutations.push([`length at ${at + 1} + 1`, changed(at + 1, (der[at + 1] + 1) & 0xff)]);
  }
  for (let i = 0; i < randomBytes; i++) {
    const at = random(der.length);
    mutations.push([`byte at ${at}`, changed(at, random(256))]);
  }
  for (const keep of [1, 2, 10, der.length >> 2, der.length >> 1, der.length - 40, der.length - 2, der.length - 1]) {
    mutations.push([`cut to ${keep} bytes`, der.subarray(0, keep)]);
  }
  return mutations;
}

function contentsOf(pdf: Uint8Array, index: number): Uint8Array {
  const at = locateSignature(pdf, index);
  return Buffer.from(Buffer.from(pdf.subarray(at.contentsStart + 1, at.contentsEnd - 1)).toString("latin1"), "hex");
}

/** Every long hexadecimal /Contents of a PDF, as bytes (signatures and document time-stamps; the zero padding stays). */
function hexContentsOf(pdf: Buffer): Uint8Array[] {
  const text = pdf.toString("latin1");
  return [...text.matchAll(/\/Contents\s*<([0-9A-Fa-f\s]{400,})>/g)].map((match) => new Uint8Array(Buffer.from(match[1].replace(/\s/g, ""), "hex")));
}

let genuine: GenuineOutputs;

beforeAll(async () => {
  genuine = await makeGenuineOutputs();
}, 120_000);

describe("the CMS reader against the former pkijs reader", () => {
  test("reads our signatures, their time-stamp tokens and a document time-stamp exactly as before", () => {
    for (const index of [0, 1, 2]) {
      const cms = contentsOf(genuine.twoSignersLta, index);
      expect(expectSameReading(cms, `signature ${index}`, { everySigner: true }).refused).toBe(false);
      for (const token of readSignedData(cms).timeStampTokensDer) expect(expectSameReading(token, `token of signature ${index}`).refused).toBe(false);
    }
  });

  test("refuses exactly what it refused, on every tag, length and random byte of our CMS and its token changed", async () => {
    const random = seeded(29);
    const cms = readSignedData(contentsOf(genuine.twoSignersLta, 0)).der;
    const token = readSignedData(cms).timeStampTokensDer[0];
    let refused = 0;
    let total = 0;
    for (const [input, label] of [
      [cms, "signature"],
      [token, "token"],
    ] as const) {
      for (const [what, mutated] of mutationsOf(input, random, 150)) {
        if (expectSameReading(mutated, `${label}: ${what}`, { withoutCertificateReader: true }).refused) refused++;
        total++;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    // the mutations reach both verdicts, so agreement is not agreement on refusing everything
    expect(total).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(total / 10);
    expect(total - refused).toBeGreaterThan(total / 10);
  }, 300_000);

  test("reads the signatures of the real-world files (EU DSS) as before, and refuses their mutations as before", async () => {
    const random = seeded(2026);
    let read = 0;
    for (const file of fs.readdirSync(REAL_WORLD).filter((name) => name.endsWith(".pdf"))) {
      for (const [index, contents] of hexContentsOf(fs.readFileSync(path.join(REAL_WORLD, file))).entries()) {
        const label = `${file} /Contents ${index}`;
        if (expectSameReading(contents, label, { everySigner: true }).refused) continue;
        read++;
        const reading = readSignedData(contents);
        for (const token of reading.timeStampTokensDer) expectSameReading(token, `${label} token`);
        // a sample of the structural mutations: random bytes mostly land in certificates, which x509 reads either way
        const mutations = mutationsOf(reading.der, random, 0);
        const step = Math.max(1, Math.floor(mutations.length / 16));
        for (const [what, mutated] of mutations.filter((_, at) => at % step === 0)) expectSameReading(mutated, `${label}: ${what}`);
      }
      // let the test runner's messages through between files
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(read).toBeGreaterThan(40);
  }, 300_000);
});

describe("the TSTInfo reader against the former pkijs reader", () => {
  test("refuses and reads exactly as before on every tag, length and random byte of TSTInfos changed (ours and other TSAs')", () => {
    const random = seeded(3161);
    const tokens = [readSignedData(contentsOf(genuine.twoSignersLta, 0)).timeStampTokensDer[0], readSignedData(contentsOf(genuine.twoSignersLta, 2)).der];
    for (const file of fs.readdirSync(REAL_WORLD).filter((name) => name.endsWith(".pdf"))) {
      for (const contents of hexContentsOf(fs.readFileSync(path.join(REAL_WORLD, file)))) {
        try {
          tokens.push(...readSignedData(contents).timeStampTokensDer);
        } catch {
          // not a readable CMS: the CMS tests above judge it
        }
      }
    }
    const policies = new Set<string>();
    let refused = 0;
    let total = 0;
    for (const token of tokens.slice(0, 12)) {
      const reading = readSignedData(token);
      policies.add(readTstInfo(reading).policyOid);
      for (const [what, mutated] of mutationsOf(reading.encapsulatedContent!, random, 60)) {
        const mutatedReading = { ...reading, encapsulatedContent: mutated };
        const after = outcomeOf(() => readTstInfo(mutatedReading));
        expect(after, what).toEqual(outcomeOf(() => readTstInfoWithPkijs(mutatedReading)));
        if (after.refused) refused++;
        total++;
      }
    }
    expect(policies.size).toBeGreaterThan(1);
    expect(refused).toBeGreaterThan(total / 10);
    expect(total - refused).toBeGreaterThan(total / 10);
  }, 120_000);
});

/** Our first signature's CMS as an asn1js tree, with its SignedData fields and its SignerInfo's fields at hand to edit. */
function editableCms() {
  const root = asn1js.fromBER(new Uint8Array(readSignedData(contentsOf(genuine.twoSignersLta, 0)).der), { parseEmbedded: false }).result as asn1js.Sequence;
  const signedData = (root.valueBlock.value[1] as asn1js.Constructed).valueBlock.value[0] as asn1js.Sequence;
  const fields = signedData.valueBlock.value;
  const signerInfos = fields[fields.length - 1] as asn1js.Set;
  const signerInfo = signerInfos.valueBlock.value[0] as asn1js.Sequence;
  const signed = signerInfo.valueBlock.value[3] as asn1js.Constructed;
  return { root, fields, signerInfos, signerInfo: signerInfo.valueBlock.value, signed, encode: () => new Uint8Array(root.toBER(false)) };
}

const attributeOf = (signed: asn1js.Constructed, oid: string) =>
  signed.valueBlock.value.find((attribute) => ((attribute as asn1js.Sequence).valueBlock.value[0] as asn1js.ObjectIdentifier).valueBlock.toString() === oid) as asn1js.Sequence;

describe("hand-written structure checks, each refused as the pkijs schema refused it", () => {
  const cases: [string, (cms: ReturnType<typeof editableCms>) => void][] = [
    ["two signedAttrs fields", (cms) => cms.signerInfo.splice(4, 0, cms.signed)],
    ["an empty signedAttrs field", (cms) => (cms.signed.valueBlock.value = [])],
    ["signedAttrs encoded primitive", (cms) => (cms.signerInfo[3] = new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 0 }, valueHex: new Uint8Array([1]) }))],
    ["a SignerInfo version that is an OCTET STRING", (cms) => (cms.signerInfo[0] = new asn1js.OctetString({ valueHex: new Uint8Array([1]) }))],
    ["a SignedData version that is a BOOLEAN", (cms) => (cms.fields[0] = new asn1js.Boolean({ value: true }))],
    ["a SignerIdentifier that is [1]", (cms) => (cms.signerInfo[1] = new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 1 }, valueHex: new Uint8Array([1, 2]) }))],
    ["a SignerIdentifier that is a constructed [0]", (cms) => (cms.signerInfo[1] = new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: [new asn1js.OctetString({ valueHex: new Uint8Array([1, 2]) })] }))],
    ["an IssuerAndSerialNumber without its serial number", (cms) => (cms.signerInfo[1] as asn1js.Sequence).valueBlock.value.pop()],
    ["an attribute cut after its type", (cms) => attributeOf(cms.signed, "1.2.840.113549.1.9.4").valueBlock.value.pop()],
    ["a message digest attribute with no value", (cms) => ((attributeOf(cms.signed, "1.2.840.113549.1.9.4").valueBlock.value[1] as asn1js.Set).valueBlock.value = [])],
    ["a message digest attribute with two values", (cms) => {
      const values = attributeOf(cms.signed, "1.2.840.113549.1.9.4").valueBlock.value[1] as asn1js.Set;
      values.valueBlock.value.push(values.valueBlock.value[0]);
    }],
    ["two message digest attributes", (cms) => cms.signed.valueBlock.value.push(attributeOf(cms.signed, "1.2.840.113549.1.9.4"))],
    ["a SignerInfo without its signature", (cms) => cms.signerInfo.splice(5, 1)],
    ["a signature that is a constructed OCTET STRING", (cms) => (cms.signerInfo[5] = new asn1js.OctetString({ isConstructed: true, idBlock: { isConstructed: true }, value: [new asn1js.OctetString({ valueHex: new Uint8Array([1]) })] }))],
    ["an unknown element where the unsigned attributes belong", (cms) => cms.signerInfo.splice(6, 1, new asn1js.Integer({ value: 1 }))],
    ["no SignerInfo", (cms) => (cms.signerInfos.valueBlock.value = [])],
    ["five SignerInfos", (cms) => cms.signerInfos.valueBlock.value.push(...Array(4).fill(cms.signerInfos.valueBlock.value[0]))],
    ["a digest algorithm without its OID", (cms) => ((cms.fields[1] as asn1js.Set).valueBlock.value[0] as asn1js.Sequence).valueBlock.value.shift()],
    ["an encapsulated content [0] that is empty", (cms) => (cms.fields[2] as asn1js.Sequence).valueBlock.value.push(new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: [] }))],
    ["a ContentInfo whose content is not tagged [0]", (cms) => (cms.root.valueBlock.value[1].idBlock.tagNumber = 1)],
  ];

  test.each(cases)("%s", (_, edit) => {
    const cms = editableCms();
    edit(cms);
    const edited = cms.encode();
    expect(expectSameReading(edited, "edited").refused).toBe(true);
  });

  test("the unedited tree, encoded again, still reads (the edits above are what is refused)", () => {
    expect(expectSameReading(editableCms().encode(), "unedited").refused).toBe(false);
  });

  test("certificates placed after the SignerInfos are ignored with the rest of what follows them (the former reader took them from any [0])", () => {
    const cms = editableCms();
    cms.fields.push(cms.fields.splice(3, 1)[0]);
    const edited = cms.encode();
    expect(readSignedDataWithPkijs(edited).certificatesDer.length).toBeGreaterThan(0);
    expect(readSignedData(edited).certificatesDer).toEqual([]);
    // where the certificates belong, they are read
    expect(readSignedData(editableCms().encode()).certificatesDer.length).toBeGreaterThan(0);
  });

  test("elements after the last SignerInfo field are ignored, as pkijs ignored them", () => {
    const cms = editableCms();
    cms.signerInfo.push(new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 1 }, value: [] }), new asn1js.Integer({ value: 7 }));
    expect(expectSameReading(cms.encode(), "trailing").refused).toBe(false);
  });
});
