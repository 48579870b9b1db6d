import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { mrzCheckDigit } from "../read-mrz";
import { fixturePath } from "@/test/fixtures-dir";

/**
 * Test and benchmark support: SPECIMEN identity cards drawn with ImageMagick (Debian package
 * `imagemagick`) from a fixture portrait, then "photographed" (perspective on a table, blur, glare).
 * The card says ESPECIMEN twice and carries made-up names: never a real person's document. The
 * server refuses such a card; `unmarked` leaves the word out (a made-up card an attacker would draw,
 * which only staff review stops) so tests can reach the face match and the review queue.
 */
export type SpecimenCard = {
  /** Fixture portrait (path under the faces fixtures) printed on the card. */
  portrait: string;
  docNumber: string;
  surname?: string;
  givenNames?: string;
  /** Print the three TD1 MRZ lines (default true). */
  mrz?: boolean;
  /** Leave out the ESPECIMEN mark; the surname then defaults to SOTO. */
  unmarked?: boolean;
  /** Expiry as YYMMDD (default 350101). */
  expiry?: string;
  /** The sample word printed (default ESPECIMEN; MUESTRA, SPECIMEN, SAMPLE alike). */
  mark?: string;
  /** The printed expiry text (default DD MM YYYY of `expiry`; "12 ENE 2020" style), or null to print none. */
  printedExpiry?: string | null;
  /** A wrong MRZ check digit for the expiry, as a forger's slip or OCR would give (the composite still holds). */
  expiryCheckDigit?: string;
};

export type CardPhoto = {
  /** 0 = straight on; 1 = a strongly tilted phone. */
  perspective?: number;
  /** Gaussian blur sigma in photo pixels (a sharp phone photo ≈ 0.6). */
  blur?: number;
  /** A bright reflection over the card (0 none, 1 blown out over ~a third of the card). */
  glare?: number;
};

const FACES = process.env.FACE_FIXTURES ?? fixturePath("faces");
const CARD_W = 1000;
const CARD_H = 630;
const cacheDir = path.join(os.tmpdir(), "fv-specimen-cards-v3");

/** TD1 MRZ (3 × 30) for a Peruvian-style identity card. */
export function specimenMrz(card: SpecimenCard): string[] {
  const number = card.docNumber.toUpperCase().padEnd(9, "<").slice(0, 9);
  const line1 = `I<PER${number}${mrzCheckDigit(number)}`.padEnd(30, "<");
  const birth = "800101";
  const expiry = card.expiry ?? "350101";
  const line2Head = `${birth}${mrzCheckDigit(birth)}F${expiry}${card.expiryCheckDigit ?? mrzCheckDigit(expiry)}PER`.padEnd(29, "<");
  const composite = line1.slice(5, 30) + line2Head.slice(0, 7) + line2Head.slice(8, 15) + line2Head.slice(18, 29);
  const line2 = line2Head + mrzCheckDigit(composite);
  const name = `${surnameOf(card).replaceAll(" ", "<")}<<${(card.givenNames ?? "ANA MARIA").replaceAll(" ", "<")}`;
  const line3 = name.padEnd(30, "<").slice(0, 30);
  return [line1, line2, line3];
}

/** YYMMDD (this century) as the card prints it: DD MM YYYY. */
function printedDate(yymmdd: string): string {
  return `${yymmdd.slice(4, 6)} ${yymmdd.slice(2, 4)} 20${yymmdd.slice(0, 2)}`;
}

function surnameOf(card: SpecimenCard): string {
  return card.surname ?? (card.unmarked ? "SOTO" : "ESPECIMEN");
}

/** The card itself, flat, as PNG bytes (1000 × 630, ID-1 proportions). */
export function drawSpecimenCard(card: SpecimenCard): string {
  return cached(`card-${hash(card)}.png`, (out) => {
    const mrzLines = card.mrz === false ? [] : specimenMrz(card);
    const text = (x: number, y: number, size: number, value: string, font = "DejaVu-Sans", fill = "#1d2b4f") => ["-font", font, "-pointsize", String(size), "-fill", fill, "-annotate", `+${x}+${y}`, value];
    execFileSync("convert", [
      "-size", `${CARD_W}x${CARD_H}`, "gradient:#eef4f9-#cfdff0",
      "-fill", "#1d3f7a", "-draw", `rectangle 0,0 ${CARD_W},78`,
      ...text(30, 34, 26, "REPUBLICA DEL PERU", "DejaVu-Sans-Bold", "white"),
      ...text(30, 66, 20, "DOCUMENTO NACIONAL DE IDENTIDAD", "DejaVu-Sans", "white"),
      "(", path.join(FACES, card.portrait), "-resize", "250x320!", ")", "-geometry", "+34+102", "-composite",
      ...text(320, 140, 22, "DNI"),
      ...text(320, 190, 46, card.docNumber, "DejaVu-Sans-Bold"),
      ...text(320, 240, 18, "Primer apellido"),
      ...text(320, 270, 28, surnameOf(card), "DejaVu-Sans-Bold"),
      ...text(320, 310, 18, "Nombres"),
      ...text(320, 340, 28, card.givenNames ?? "ANA MARIA", "DejaVu-Sans-Bold"),
      ...text(320, 385, 18, "Fecha de nacimiento   01 01 1980"),
      // printed as well as in the MRZ, as on a real DNI: the expiry is read from either
      ...(card.printedExpiry === null ? [] : text(320, 420, 18, `Fecha de caducidad   ${card.printedExpiry ?? printedDate(card.expiry ?? "350101")}`)),
      ...(card.unmarked ? [] : text(700, 140, 22, card.mark ?? "ESPECIMEN", "DejaVu-Sans-Bold", "#b03030")),
      ...(mrzLines.length
        ? ["-fill", "#f2f1ea", "-draw", `rectangle 0,${CARD_H - 150} ${CARD_W},${CARD_H}`, ...mrzLines.flatMap((line, i) => text(40, CARD_H - 108 + i * 44, 36, line, "DejaVu-Sans-Mono", "black"))]
        : []),
      out,
    ]);
  });
}

/** A phone photo of the card lying on a table: perspective, blur, glare. JPEG bytes. */
export function photographCard(card: SpecimenCard, photo: CardPhoto = {}): Uint8Array {
  const flat = drawSpecimenCard(card);
  const file = cached(`photo-${hash({ card, photo })}.jpg`, (out) => {
    const p = photo.perspective ?? 0.3;
    const W = 1400;
    const H = 1050;
    // card corners (TL, TR, BR, BL) in the photo: the far edge narrower, as seen from an angle
    const inset = 90 * p;
    const corners = [
      [200 + inset, 170 + 20 * p], [1200 - inset, 170 - 10 * p],
      [1230, 170 + 630 * (1 - 0.08 * p) + 60], [170, 170 + 630 * (1 - 0.08 * p) + 60],
    ];
    const src = [[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]];
    const mapping = src.map((s, i) => `${s[0]},${s[1]} ${corners[i][0].toFixed(0)},${corners[i][1].toFixed(0)}`).join("  ");
    const glare = photo.glare ?? 0;
    execFileSync("convert", [
      "-size", `${W}x${H}`, "xc:#7a5c3e", "-seed", "7", "-attenuate", "0.5", "+noise", "Gaussian", "-blur", "0x3",
      "(", flat, "-alpha", "set", "-virtual-pixel", "transparent", "+distort", "Perspective", mapping, ")",
      "-background", "none", "-flatten",
      ...(glare > 0
        ? ["(", "-size", `${W}x${H}`, "xc:none", "-fill", `rgba(255,255,255,${Math.min(1, 0.55 + 0.45 * glare)})`, "-draw", `ellipse ${W * 0.42},${H * 0.36} ${120 + 140 * glare},${70 + 70 * glare} 0,360`, "-blur", `0x${24 - 16 * glare}`, ")", "-composite"]
        : []),
      "-blur", `0x${photo.blur ?? 0.6}`,
      "-quality", "90", out,
    ]);
  });
  return new Uint8Array(fs.readFileSync(file));
}

function cached(name: string, make: (out: string) => void): string {
  fs.mkdirSync(cacheDir, { recursive: true });
  const file = path.join(cacheDir, name);
  if (!fs.existsSync(file)) {
    const tmp = `${file}.${process.pid}.tmp${path.extname(name)}`;
    make(tmp);
    fs.renameSync(tmp, file);
  }
  return file;
}

function hash(value: unknown): string {
  return crypto.createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);
}
