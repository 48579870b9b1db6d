import fs from "node:fs";
import path from "node:path";
import * as asn1js from "asn1js";
import { beforeAll, describe, expect, test } from "vitest";
import { fromAsn1js, parseDer, readStrictDer, type DerNode } from "./der-tree";
import { makeGenuineOutputs, type GenuineOutputs } from "@/lib/verification/testing/make-genuine-outputs";
import { fixturePath } from "@/test/fixtures-dir";
import { seededRandom } from "@/test/seeded-random";

// The strict reader is a faster path to the tree asn1js builds, never another judgment: whatever it
// reads must be what asn1js reads from the same bytes, element by element, and whatever is not
// plain DER it leaves to asn1js. Checked on our CMSes, the EU DSS files' CMSes and their mutations.

/** What the readers see of a tree (der-reading.ts, cms-shapes.ts and the readers use nothing else). */
function shapeOf(node: DerNode): unknown {
  return {
    tag: [node.tagClass, node.tagNumber, node.constructed, node.longTag],
    kind: node.kind,
    bytes: Buffer.from(node.bytes).toString("hex"),
    content: node.constructed ? undefined : Buffer.from(node.content).toString("hex"),
    oid: node.oid,
    time: node.time && (Number.isNaN(node.time.getTime()) ? "invalid" : node.time.toISOString()),
    children: node.children.map(shapeOf),
  };
}

function asn1jsShape(bytes: Uint8Array) {
  const parsed = asn1js.fromBER(new Uint8Array(bytes), { parseEmbedded: false });
  return { refused: parsed.offset === -1 || Boolean(parsed.result.error), end: parsed.offset, shape: parsed.offset === -1 ? undefined : shapeOf(fromAsn1js(parsed.result)) };
}

/** Every long hexadecimal /Contents of a PDF, as bytes. */
function hexContentsOf(pdf: Buffer): Uint8Array[] {
  const text = pdf.toString("latin1");
  return [...text.matchAll(/\/Contents\s*<([0-9A-Fa-f\s]{400,})>/g)].map((match) => new Uint8Array(Buffer.from(match[1].replace(/\s/g, ""), "hex")));
}

function mutationsOf(der: Uint8Array, random: () => number, count: number): Uint8Array[] {
  const mutations: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const copy = new Uint8Array(der);
    copy[Math.floor(random() * der.length)] = Math.floor(random() * 256);
    mutations.push(copy);
  }
  return mutations;
}

/** The strict reader's verdict on `bytes`: when it reads them, asn1js reads the same tree to the same end. */
function expectSameAsAsn1js(bytes: Uint8Array, label: string): "strict" | "left to asn1js" {
  const strict = readStrictDer(bytes);
  if (!strict) return "left to asn1js";
  const reference = asn1jsShape(bytes);
  expect(reference.refused, `${label}: asn1js refuses what the strict reader read`).toBe(false);
  expect({ end: strict.end, shape: shapeOf(strict.node) }, label).toEqual({ end: reference.end, shape: reference.shape });
  return "strict";
}

let genuine: GenuineOutputs;
beforeAll(async () => {
  genuine = await makeGenuineOutputs();
}, 120_000);

const encode = (block: asn1js.AsnType) => new Uint8Array(block.toBER(false));

describe("the strict DER reader", () => {
  test("reads our signatures' CMSes (with their time-stamp tokens) and the document time-stamp as asn1js does, and their mutations too", () => {
    const random = seededRandom(5652);
    const verdicts = { strict: 0, "left to asn1js": 0 };
    for (const contents of hexContentsOf(Buffer.from(genuine.twoSignersLta))) {
      // the padding of /Contents follows the CMS: the reader stops where the element ends, as asn1js does
      expect(expectSameAsAsn1js(contents, "genuine")).toBe("strict");
      for (const mutated of mutationsOf(contents.subarray(0, readStrictDer(contents)!.end), random, 400)) verdicts[expectSameAsAsn1js(mutated, "mutated")]++;
    }
    // both paths are taken: a changed value octet stays strict DER, a changed tag or length often does not
    expect(verdicts.strict).toBeGreaterThan(300);
    expect(verdicts["left to asn1js"]).toBeGreaterThan(50);
  }, 120_000);

  test("reads the EU DSS files' CMSes as asn1js does where it reads them, and leaves the others to asn1js", () => {
    const verdicts = { strict: 0, "left to asn1js": 0 };
    const folder = fixturePath("pdfs/real-world");
    for (const file of fs.readdirSync(folder).filter((name) => name.endsWith(".pdf"))) {
      for (const contents of hexContentsOf(fs.readFileSync(path.join(folder, file)))) verdicts[expectSameAsAsn1js(contents, file)]++;
    }
    expect(verdicts.strict).toBeGreaterThan(20);
    // BER lengths, T61 and BMP strings: other signers' encodings are read by asn1js, as before
    expect(verdicts["left to asn1js"]).toBeGreaterThan(0);
  });

  test.each([
    ["UTCTime in 2049", new asn1js.UTCTime({ value: "491231235959Z" })],
    ["UTCTime in 1950", new asn1js.UTCTime({ value: "500101000000Z" })],
    ["UTCTime with month 13 (Date.UTC carries it over, as asn1js does)", new asn1js.UTCTime({ value: "261301000000Z" })],
    ["GeneralizedTime", new asn1js.GeneralizedTime({ value: "20501231235959Z" })],
    ["GeneralizedTime with a fraction", new asn1js.GeneralizedTime({ value: "20261129151800.5Z" })],
    ["GeneralizedTime with six fraction digits", new asn1js.GeneralizedTime({ value: "20261129151800.123456Z" })],
    ["GeneralizedTime with a fraction that rounds up", new asn1js.GeneralizedTime({ value: "20261129151800.9999Z" })],
    ["GeneralizedTime in year 0099 (Date.UTC's two-digit years, as asn1js)", new asn1js.GeneralizedTime({ value: "00991231235959Z" })],
    ["an OID under 2 with a large first arc", new asn1js.ObjectIdentifier({ value: "2.999.3" })],
    ["the OIDs at the first arcs' boundaries", new asn1js.Sequence({ value: ["0.39", "1.0", "1.39", "2.0.1"].map((value) => new asn1js.ObjectIdentifier({ value })) })],
    ["an OID with a 49-bit arc", new asn1js.ObjectIdentifier({ value: "1.2.562949953421311" })],
    ["a UTF-8 name", new asn1js.Utf8String({ value: "José Pérez" })],
    ["an empty SEQUENCE", new asn1js.Sequence({ value: [] })],
    ["a long content length", new asn1js.OctetString({ valueHex: new Uint8Array(70_000) })],
    ["a GeneralizedTime of 32 octets (16 fraction digits)", new asn1js.GeneralizedTime({ value: "20261129151800.9999999999999999Z" })],
  ])("reads %s as asn1js does", (_, block) => {
    expect(expectSameAsAsn1js(encode(block), "value")).toBe("strict");
  });

  test.each([
    ["an indefinite length", [0x30, 0x80, 0x02, 0x01, 0x01, 0x00, 0x00]],
    ["a length in more octets than it needs", [0x30, 0x81, 0x03, 0x02, 0x01, 0x01]],
    ["a long-form tag", [0x1f, 0x22, 0x01, 0x00]],
    ["a constructed OCTET STRING", [0x24, 0x03, 0x04, 0x01, 0x41]],
    ["a primitive SEQUENCE", [0x10, 0x03, 0x02, 0x01, 0x01]],
    ["a UTCTime without seconds", [0x17, 0x0b, ...Buffer.from("2611291518Z")]],
    ["a GeneralizedTime with a comma", [0x18, 0x11, ...Buffer.from("20261129151800,5Z")]],
    ["a GeneralizedTime with an offset", [0x18, 0x13, ...Buffer.from("20261129151800+0100")]],
    ["an OID cut in a subidentifier", [0x06, 0x02, 0x2a, 0x86]],
    ["an OID arc past 49 bits", [0x06, 0x09, 0x2a, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x01]],
    ["a T61String", [0x14, 0x01, 0x41]],
    ["a PrintableString with an octet past ASCII", [0x13, 0x01, 0xe9]],
    ["a UTF8String that is not UTF-8", [0x0c, 0x01, 0xe9]],
    ["an empty INTEGER", [0x02, 0x00]],
    ["a BIT STRING with 8 unused bits", [0x03, 0x02, 0x08, 0x00]],
    ["a NULL with contents", [0x05, 0x01, 0x00]],
    ["an element longer than its input", [0x30, 0x05, 0x02, 0x01]],
    ["a GeneralizedTime of 200 octets", [0x18, 0x81, 0xc8, ...Buffer.from(`20261129151800.${"1".repeat(184)}Z`)]],
  ])("leaves %s to asn1js", (_, octets) => {
    const bytes = new Uint8Array(octets);
    expect(readStrictDer(bytes)).toBeUndefined();
    // and parseDer answers with what asn1js read, nothing when asn1js cannot parse it, and throws where asn1js throws
    const outcome = (parse: () => DerNode | undefined) => {
      try {
        const node = parse();
        return node ? shapeOf(node) : "not parsed";
      } catch (error) {
        return `throws ${(error as Error).message}`;
      }
    };
    expect(outcome(() => parseDer(bytes)?.node)).toEqual(
      outcome(() => {
        const reference = asn1js.fromBER(new Uint8Array(bytes), { parseEmbedded: false });
        return reference.offset === -1 ? undefined : fromAsn1js(reference.result);
      }),
    );
  });

  test("stops at asn1js's depth limit rather than reading deeper", () => {
    let nested: asn1js.AsnType = new asn1js.Integer({ value: 1 });
    for (let depth = 0; depth < 120; depth++) nested = new asn1js.Sequence({ value: [nested] });
    expect(readStrictDer(encode(nested))).toBeUndefined();
  });
});
