import jpeg from "jpeg-js";
import { PNG } from "pngjs";
import { analyzeFace } from "@/lib/faces/analyze-face";
import { decodeImage, type DecodedImage } from "@/lib/faces/decode-image";
import { FaceError } from "@/lib/faces/face-error";
import { CARD_LIMITS, inspectCardPhoto, type CardRegion } from "./inspect-card-photo";
import { loadOcrEngine } from "./load-ocr-engine";
import { readMrz, type MrzReading } from "./read-mrz";

/** Why an ID photo cannot be the reference; each has a message saying what to fix (signer-messages.ts). */
export type IdDocumentRefusal =
  | "id_document_unreadable"
  | "id_document_not_a_card"
  | "id_document_blurry"
  | "id_document_glare"
  | "id_document_no_face"
  | "id_document_multiple_faces"
  | "id_document_number_unreadable"
  | "id_document_wrong_number"
  | "id_document_expired"
  | "id_document_specimen";

export type IdDocumentCheck =
  | {
      ok: true;
      /** JPEG of the card's portrait: the face reference. */
      portrait: Uint8Array;
      numberSource: "mrz" | "printed";
      mrzValid: boolean;
      /** What the reviewer is shown: the zone as read, its names, the expiry date (YYYY-MM-DD). */
      mrzLines?: string[];
      mrzNames?: { lastName: string; firstName: string };
      expiresOn?: string;
      /** The expiry could not be trusted (issue 36): the card is never taken as undated, it goes to review with this reason. */
      expiryProblem?: ExpiryProblem;
    }
  | { ok: false; reason: IdDocumentRefusal };

/** Why the card's expiry date could not be established; shown to the reviewer. */
export type ExpiryProblem = "mrz_expiry_check_digit" | "mrz_expiry_unreadable" | "expiry_inconsistent" | "expiry_unreadable";

/** The portrait's height over the card's: a face printed on a card, not a selfie filling the frame. */
const PORTRAIT_SHARE = { min: 0.15, max: 0.8 } as const;
const OCR_MAX_WIDTH = 1400;

/**
 * Checks that a photo shows an identity card belonging to `docId` and returns its portrait:
 * a card-shaped region that is sharp and free of glare, a face printed on it, text on it, and the
 * document number, read by OCR from the TD1 machine-readable zone when the card has one (its check
 * digit must hold) or else from the printed text, equal to `docId`. CPU heavy (OCR): run it in the
 * face worker.
 */
export async function verifyIdDocument(bytes: Uint8Array, expected: { docId: string; today?: Date }): Promise<IdDocumentCheck> {
  const located = await locateIdCard(bytes);
  return located.ok ? readIdCard(located.card, expected) : located;
}

/** A photo in which a card and the portrait printed on it were found: what the OCR half reads. */
export type LocatedIdCard = { image: DecodedImage; card: CardRegion; faceBox: CardRegion };

/**
 * The first half of verifyIdDocument, on the calling thread: the card, its sharpness and glare,
 * and the portrait on it. The second half (readIdCard) runs tesseract in its own thread, so the
 * caller can analyse the selfie frames meanwhile.
 */
export async function locateIdCard(bytes: Uint8Array): Promise<{ ok: true; card: LocatedIdCard } | { ok: false; reason: IdDocumentRefusal }> {
  let image: DecodedImage;
  try {
    image = await decodeImage(bytes, 1600);
  } catch (error) {
    if (error instanceof FaceError) return { ok: false, reason: "id_document_unreadable" };
    throw error;
  }
  const inspection = inspectCardPhoto(image);
  if (!inspection.card) return { ok: false, reason: "id_document_not_a_card" };
  if (inspection.sharpness < CARD_LIMITS.minSharpness) return { ok: false, reason: "id_document_blurry" };
  if (inspection.glare > CARD_LIMITS.maxGlare) return { ok: false, reason: "id_document_glare" };
  const card = inspection.card;

  let face;
  try {
    face = await analyzeFace(bytes, { multipleFaces: "largest" });
  } catch (error) {
    if (!(error instanceof FaceError)) throw error;
    return { ok: false, reason: error.reason === "MULTIPLE_FACES" ? "id_document_multiple_faces" : error.reason === "INVALID_IMAGE" ? "id_document_unreadable" : "id_document_no_face" };
  }
  const k = image.width / image.originalWidth;
  const faceBox = { x: face.box.x * k, y: face.box.y * k, width: face.box.width * k, height: face.box.height * k };
  const centre = { x: faceBox.x + faceBox.width / 2, y: faceBox.y + faceBox.height / 2 };
  const inside = centre.x > card.x && centre.x < card.x + card.width && centre.y > card.y && centre.y < card.y + card.height;
  const share = faceBox.height / card.height;
  if (!inside || share < PORTRAIT_SHARE.min || share > PORTRAIT_SHARE.max) return { ok: false, reason: "id_document_not_a_card" };
  return { ok: true, card: { image, card, faceBox } };
}

/** The second half of verifyIdDocument: the card's text by OCR, its number, whether it is a sample, its expiry; then the portrait. */
export async function readIdCard({ image, card, faceBox }: LocatedIdCard, expected: { docId: string; today?: Date }): Promise<IdDocumentCheck> {
  const ocr = await (await loadOcrEngine()).read(cardForOcr(image, card));
  const words = ocr.text.split(/\s+/).filter((word) => /[A-Za-z0-9]{3,}/.test(word));
  if (words.length < 3) return { ok: false, reason: "id_document_not_a_card" };
  const expectedNumber = comparable(expected.docId);
  const mrz = readMrz(ocr.text);
  let numberSource: "mrz" | "printed";
  if (mrz) {
    if (comparable(mrz.documentNumber) !== expectedNumber) return { ok: false, reason: "id_document_wrong_number" };
    numberSource = "mrz";
  } else {
    const printed = (ocr.text.toUpperCase().match(/[A-Z0-9]{6,15}/g) ?? []).filter((token) => /\d{5}/.test(token)).map(comparable);
    if (printed.includes(expectedNumber)) numberSource = "printed";
    else return { ok: false, reason: printed.length > 0 ? "id_document_wrong_number" : "id_document_number_unreadable" };
  }
  // a sample card is nobody's document, and an expired one no longer identifies its holder
  if (isSpecimen(ocr.text, mrz?.names)) return { ok: false, reason: "id_document_specimen" };
  const { expiresOn, expiryProblem, earliest } = expiryOf(mrz, printedExpiry(ocr.text));
  // any date read, trusted or not, that has passed refuses the card: an unsure date never helps it
  if (earliest && earliest < (expected.today ?? new Date()).toISOString().slice(0, 10)) return { ok: false, reason: "id_document_expired" };
  return {
    ok: true,
    portrait: cropPortrait(image, faceBox),
    numberSource,
    mrzValid: mrz?.valid ?? false,
    ...(mrz ? { mrzLines: mrz.lines, mrzNames: mrz.names } : {}),
    ...(expiresOn ? { expiresOn } : {}),
    ...(expiryProblem ? { expiryProblem } : {}),
  };
}

/**
 * The card's expiry from the MRZ and the printed text, failing closed: a broken check digit, an
 * impossible date, a zone and a print that disagree, or no readable date at all is a problem for
 * a reviewer, never "no date". `earliest`: the earliest date read by either, trusted or not.
 */
export function expiryOf(mrz: Pick<MrzReading, "expiresOn" | "expiryProblem"> | null, printed: string | undefined): { expiresOn?: string; expiryProblem?: ExpiryProblem; earliest?: string } {
  const read = [mrz?.expiresOn, mrz?.expiryProblem?.asRead, printed].filter((date): date is string => Boolean(date)).sort();
  const earliest = read[0];
  if (mrz?.expiryProblem) return { expiryProblem: mrz.expiryProblem.reason, earliest };
  if (mrz?.expiresOn && printed && mrz.expiresOn !== printed) return { expiryProblem: "expiry_inconsistent", earliest };
  const expiresOn = mrz?.expiresOn ?? printed;
  return expiresOn ? { expiresOn, earliest } : { expiryProblem: "expiry_unreadable" };
}

/**
 * SPECIMEN / ESPECIMEN / MUESTRA / SAMPLE (and OCR slips such as "ESPEC1MEN", "MUE5TRA", "SAMP1E")
 * printed on the card or spelled in the MRZ names: every word for a sample card counts alike.
 */
export function isSpecimen(ocrText: string, mrzNames?: { lastName: string; firstName: string }): boolean {
  const specimen = /E?SPEC[I1L]MEN|\bMUE[S5]TRA\b|\b[S5]AMP[L1I]E\b/;
  const text = ocrText.toUpperCase();
  return specimen.test(text) || (mrzNames ? specimen.test(`${mrzNames.lastName} ${mrzNames.firstName}`.toUpperCase()) : false);
}

/** Spanish month abbreviations as printed on cards ("12 ENE 2030"); SET is Peru's September. */
const SPANISH_MONTHS: Record<string, string> = { ENE: "01", FEB: "02", MAR: "03", ABR: "04", MAY: "05", JUN: "06", JUL: "07", AGO: "08", SEP: "09", SET: "09", OCT: "10", NOV: "11", DIC: "12" };

/**
 * "Fecha de caducidad/vencimiento/expiración dd mm yyyy" (or "dd MMM yyyy" with a Spanish month
 * abbreviation) as printed on Latin American cards, as YYYY-MM-DD.
 */
export function printedExpiry(ocrText: string): string | undefined {
  const match = /(?:CADUCIDAD|VENCIMIENTO|EXPIRACI[OÓ]N|EXPIRY|EXPIRES)[^0-9]{0,20}(\d{2})[\s./-]{1,3}(\d{2}|[A-Z]{3})\.?[\s./-]{1,3}(\d{4})/i.exec(ocrText);
  if (!match) return undefined;
  const [, day, monthAsRead, year] = match;
  const month = /^\d{2}$/.test(monthAsRead) ? monthAsRead : SPANISH_MONTHS[monthAsRead.toUpperCase()];
  if (!month || Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > 31) return undefined;
  return `${year}-${month}-${day}`;
}

function comparable(value: string): string {
  return value.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

/** The card region in grey, at most 1400 px wide (box-averaged when larger), as PNG: what tesseract reads best. */
function cardForOcr(image: DecodedImage, card: CardRegion): Uint8Array {
  const margin = 0.03;
  const x0 = Math.max(0, Math.floor(card.x - card.width * margin));
  const y0 = Math.max(0, Math.floor(card.y - card.height * margin));
  const x1 = Math.min(image.width, Math.ceil(card.x + card.width * (1 + margin)));
  const y1 = Math.min(image.height, Math.ceil(card.y + card.height * (1 + margin)));
  const step = Math.max(1, (x1 - x0) / OCR_MAX_WIDTH);
  const width = Math.max(1, Math.floor((x1 - x0) / step));
  const height = Math.max(1, Math.floor((y1 - y0) / step));
  const grey = Buffer.alloc(width * height);
  const reach = Math.max(1, Math.round(step));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      let n = 0;
      for (let dy = 0; dy < reach; dy++) {
        for (let dx = 0; dx < reach; dx++) {
          const sx = Math.min(image.width - 1, Math.floor(x0 + x * step) + dx);
          const sy = Math.min(image.height - 1, Math.floor(y0 + y * step) + dy);
          const o = (sy * image.width + sx) * 3;
          sum += 0.299 * image.data[o] + 0.587 * image.data[o + 1] + 0.114 * image.data[o + 2];
          n++;
        }
      }
      grey[y * width + x] = Math.round(sum / n);
    }
  }
  const png = new PNG({ width, height, colorType: 0, inputColorType: 0, inputHasAlpha: false });
  png.data = grey;
  return new Uint8Array(PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false }));
}

/** The printed portrait with some margin (hair, chin), as JPEG: the face reference for the match. */
function cropPortrait(image: DecodedImage, face: CardRegion): Uint8Array {
  const x0 = Math.max(0, Math.round(face.x - face.width * 0.4));
  const y0 = Math.max(0, Math.round(face.y - face.height * 0.5));
  const x1 = Math.min(image.width, Math.round(face.x + face.width * 1.4));
  const y1 = Math.min(image.height, Math.round(face.y + face.height * 1.5));
  const width = x1 - x0;
  const height = y1 - y0;
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = ((y0 + y) * image.width + x0 + x) * 3;
      rgba.set([image.data[o], image.data[o + 1], image.data[o + 2], 255], (y * width + x) * 4);
    }
  }
  return new Uint8Array(jpeg.encode({ data: rgba, width, height }, 92).data);
}
