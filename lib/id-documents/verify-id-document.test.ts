import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { analyzeFace } from "@/lib/faces/analyze-face";
import { matchFaces } from "@/lib/faces/match-faces";
import { photographCard, type CardPhoto, type SpecimenCard } from "./testing/make-specimen-card";
import { expiryOf, isSpecimen, printedExpiry, verifyIdDocument } from "./verify-id-document";
import { fixturePath } from "@/test/fixtures-dir";

const FACES = fixturePath("faces");
// a made-up card without the ESPECIMEN mark passes these checks (only staff review stops it); the marked one is refused
const card: SpecimenCard = { portrait: "person-a-obama/a1-id-portrait-413x531.jpg", docNumber: "45871236", unmarked: true };
const refusals: [string, SpecimenCard, CardPhoto, string][] = [
  ["a card printed ESPECIMEN", { ...card, unmarked: false }, {}, "id_document_specimen"],
  ["a card whose MRZ says it expired", { ...card, expiry: "200101" }, {}, "id_document_expired"],
  ["an expired card without an MRZ (only the printed date)", { ...card, expiry: "200101", mrz: false }, {}, "id_document_expired"],
  ["a card with another number", { ...card, docNumber: "45871237" }, {}, "id_document_wrong_number"],
  // issue 36: each of these passed before, as a card without a date or without a mark
  ["an expired card whose MRZ expiry check digit is broken (and no printed date)", { ...card, expiry: "200101", expiryCheckDigit: "9", printedExpiry: null }, {}, "id_document_expired"],
  ["a card without an MRZ printed 12 ENE 2020", { ...card, mrz: false, printedExpiry: "12 ENE 2020" }, {}, "id_document_expired"],
  ["a card printed MUESTRA", { ...card, unmarked: false, surname: "SOTO", mark: "MUESTRA" }, {}, "id_document_specimen"],
  ["a blurry photo", card, { blur: 5 }, "id_document_blurry"],
  ["a reflection over the card", card, { glare: 1 }, "id_document_glare"],
];

// OCR and face models: seconds per case on a busy 2-core machine, so few cases, generous limits
describe("isSpecimen and printedExpiry (OCR text)", () => {
  it.each([
    ["ESPECIMEN printed", "REPUBLICA DEL PERU ESPECIMEN DNI", undefined, true],
    ["SPECIMEN misread with a 1", "SPEC1MEN", undefined, true],
    ["ESPECIMEN in the MRZ surname", "DNI 45871236", { lastName: "ESPECIMEN", firstName: "ANA" }, true],
    ["MUESTRA printed", "REPUBLICA DEL PERU MUESTRA DNI", undefined, true],
    ["MUESTRA misread with a 5", "MUE5TRA", undefined, true],
    ["SAMPLE printed", "SAMPLE ID CARD", undefined, true],
    ["SPECIMEN in English", "SPECIMEN", undefined, true],
    ["MUESTRA in the MRZ names", "DNI 45871236", { lastName: "MUESTRA", firstName: "ANA" }, true],
    ["an ordinary card", "REPUBLICA DEL PERU DNI 45871236 SOTO", { lastName: "SOTO", firstName: "ANA" }, false],
    ["a surname that contains the letters", "SAMPLERS MUESTRARIO", { lastName: "SOTO", firstName: "ANA" }, false],
  ] as const)("%s", (_name, text, names, expected) => {
    expect(isSpecimen(text, names)).toBe(expected);
  });
  it("reads a printed expiry date and ignores an impossible one", () => {
    expect(printedExpiry("Fecha de caducidad 15 03 2031")).toBe("2031-03-15");
    expect(printedExpiry("Vencimiento: 01/02/2019")).toBe("2019-02-01");
    expect(printedExpiry("Caducidad 45 13 2031")).toBeUndefined();
    expect(printedExpiry("Fecha de nacimiento 01 01 1980")).toBeUndefined();
  });
  it.each([
    ["12 ENE 2030", "2030-01-12"],
    ["03 SET 2029", "2029-09-03"],
    ["31 dic. 2031", "2031-12-31"],
    ["12 XYZ 2030", undefined],
  ])("reads the printed Spanish date %s", (date, expected) => {
    expect(printedExpiry(`Fecha de caducidad ${date}`)).toBe(expected);
  });
});

describe("expiryOf (fails closed)", () => {
  it.each([
    ["MRZ and print agree", { expiresOn: "2035-01-01" }, "2035-01-01", { expiresOn: "2035-01-01", earliest: "2035-01-01" }],
    ["only the print", null, "2035-01-01", { expiresOn: "2035-01-01", earliest: "2035-01-01" }],
    ["MRZ and print disagree", { expiresOn: "2035-01-01" }, "2031-01-01", { expiryProblem: "expiry_inconsistent", earliest: "2031-01-01" }],
    ["a broken check digit, read as a date", { expiryProblem: { reason: "mrz_expiry_check_digit" as const, asRead: "2020-01-01" } }, undefined, { expiryProblem: "mrz_expiry_check_digit", earliest: "2020-01-01" }],
    ["no date anywhere", null, undefined, { expiryProblem: "expiry_unreadable" }],
  ] as const)("%s", (_name, mrz, printed, expected) => {
    expect(expiryOf(mrz, printed)).toEqual(expected);
  });
});

describe("verifyIdDocument (specimen cards made with ImageMagick)", () => {
  it("reads the number from the MRZ of a tilted card photo and crops its portrait", async () => {
    const result = await verifyIdDocument(photographCard(card, { perspective: 1 }), { docId: "45871236" });
    expect(result).toMatchObject({ ok: true, numberSource: "mrz", mrzValid: true, expiresOn: "2035-01-01" });
    if (!result.ok) return;
    // OCR of a tilted card may double a letter of the names: the reviewer sees them as read
    expect(result.mrzNames?.firstName).toMatch(/ANA/);
    const portrait = await analyzeFace(result.portrait);
    expect(portrait.faces).toBe(1);
    const selfie = new Uint8Array(fs.readFileSync(`${FACES}/person-a-obama/a3-selfie-like-480x640.jpg`));
    expect((await matchFaces(selfie, result.portrait)).decision).toBe("match");
  }, 120_000);

  it("without an MRZ, finds the number in the printed text", async () => {
    const result = await verifyIdDocument(photographCard({ ...card, mrz: false }), { docId: "45871236" });
    expect(result).toMatchObject({ ok: true, numberSource: "printed" });
  }, 120_000);

  it("a current card whose MRZ expiry check digit is broken is not taken as undated: it carries the reason for review", async () => {
    const result = await verifyIdDocument(photographCard({ ...card, expiryCheckDigit: "9", printedExpiry: null }), { docId: "45871236" });
    expect(result).toMatchObject({ ok: true, numberSource: "mrz", expiryProblem: "mrz_expiry_check_digit" });
    expect(result).not.toHaveProperty("expiresOn");
  }, 120_000);

  it.each(refusals)("refuses %s", async (_name, specimen, photo, reason) => {
    expect(await verifyIdDocument(photographCard(specimen, photo), { docId: "45871236" })).toEqual({ ok: false, reason });
  }, 120_000);

  it.each([
    ["a selfie", "person-a-obama/a2-selfie-like-480x640.jpg"],
    ["an official portrait", "person-b-biden/b1-official-portrait-2013.jpg"],
    ["a photo without a face", "no-face/no-face-chandelier-480x640.jpg"],
  ])("refuses %s as an ID document", async (_name, file) => {
    const result = await verifyIdDocument(new Uint8Array(fs.readFileSync(`${FACES}/${file}`)), { docId: "45871236" });
    expect(result.ok).toBe(false);
    expect(["id_document_not_a_card", "id_document_no_face"]).toContain(!result.ok && result.reason);
  }, 120_000);
});
