import jpeg from "jpeg-js";
import { PNG } from "pngjs";
import { analyzeFace } from "@/lib/faces/analyze-face";
import { decodeImage, type DecodedImage } from "@/lib/faces/decode-image";
import { FaceError } from "@/lib/faces/face-error";
import { CARD_LIMITS, inspectCardPhoto, type CardRegion } from "./inspect-card-photo";
import { loadOcrEngine } from "./load-ocr-engine";
import { readMrz } from "./read-mrz";

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
    }
  | { ok: false; reason: IdDocumentRefusal };

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
  let image: DecodedImage;
  try {
    image = decodeImage(bytes, 1600);
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
  const expiresOn = mrz?.expiresOn ?? printedExpiry(ocr.text);
  if (expiresOn && expiresOn < (expected.today ?? new Date()).toISOString().slice(0, 10)) return { ok: false, reason: "id_document_expired" };
  return {
    ok: true,
    portrait: cropPortrait(image, faceBox),
    numberSource,
    mrzValid: mrz?.valid ?? false,
    ...(mrz ? { mrzLines: mrz.lines, mrzNames: mrz.names } : {}),
    ...(expiresOn ? { expiresOn } : {}),
  };
}

/** SPECIMEN / ESPECIMEN (and OCR slips such as "ESPEC1MEN") printed on the card or spelled in the MRZ names. */
export function isSpecimen(ocrText: string, mrzNames?: { lastName: string; firstName: string }): boolean {
  const specimen = /E?SPEC[I1L]MEN/;
  const text = ocrText.toUpperCase();
  return specimen.test(text) || (mrzNames ? specimen.test(`${mrzNames.lastName} ${mrzNames.firstName}`.toUpperCase()) : false);
}

/** "Fecha de caducidad/vencimiento/expiración dd mm yyyy" as printed on Latin American cards, as YYYY-MM-DD. */
export function printedExpiry(ocrText: string): string | undefined {
  const match = /(?:CADUCIDAD|VENCIMIENTO|EXPIRACI[OÓ]N|EXPIRY|EXPIRES)[^0-9]{0,20}(\d{2})[\s./-]{1,3}(\d{2})[\s./-]{1,3}(\d{4})/i.exec(ocrText);
  if (!match) return undefined;
  const [, day, month, year] = match;
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > 31) return undefined;
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
