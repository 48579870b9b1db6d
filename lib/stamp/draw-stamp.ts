import { PDFDocument, type PDFRef } from "pdf-lib";
import { buildStampContent, type StampData, type StampLine, type StampLineStyle } from "@/lib/stamp/build-stamp-content";
import { drawQrCode } from "@/lib/stamp/draw-qr-code";
import { embedStampImage } from "@/lib/stamp/embed-stamp-image";
import { blockHeight, fitStampText, fontFor, type StampFonts } from "@/lib/stamp/fit-stamp-text";
import { layoutProcessStamp, layoutStamp, type StampBox, type StampOrientation, type StampSize } from "@/lib/stamp/layout-stamp";
import { loadStampFonts, parsedOnceFontkit } from "@/lib/stamp/load-stamp-fonts";
import { deflateNatively, pdfLibFace, preparedStampFaces, subsetName, type PreparedFace, type StampFace } from "@/lib/stamp/stamp-faces";
import type { ExifOrientation } from "@/lib/images/read-image-header";
import type { StampImage } from "@/lib/stamp/read-stamp-image";
import { timedSync } from "@/lib/runtime/request-timing";

export { stampDimensions } from "@/lib/stamp/layout-stamp";

export interface DrawStampInput {
  data: StampData;
  image?: StampImage;
  /** Final QR text (auto or client text, see buildStampContent), or null for no QR. */
  qr: { text: string } | null;
  size: StampSize;
  /** Set for a process signer's stamp (text only, see layoutProcessStamp); the stamp API never sets it. */
  orientation?: StampOrientation;
}

export interface DrawnStamp {
  /** Scratch document that owns the form and everything it references (fonts, image). */
  document: PDFDocument;
  /** Form XObject with /BBox [0 0 width height]. */
  formXObject: PDFRef;
  width: number;
  height: number;
}

const FONT_NAMES: Record<StampLineStyle, string> = { banner: "FBold", title: "FBold", body: "FRegular" };
const IMAGE_NAME = "StampImage";

/**
 * Draws the visual stamp (image, signer data, QR) as a Form XObject in a scratch document; the PDF
 * engine copies it into the signed file as the appearance of the signature widget.
 */
export async function drawStamp({ data, image, qr, size, orientation }: DrawStampInput): Promise<DrawnStamp> {
  if (orientation && (image || qr)) throw new Error("a process stamp holds text only");
  const layout = orientation ? layoutProcessStamp(size, orientation) : layoutStamp(size, image !== undefined, qr !== null);
  const { lines } = buildStampContent(data);
  // qr is validated before anything is embedded, so a too-long text fails fast
  const qrContent = qr && layout.qr ? timedSync("image-qr", () => drawQrCode(qr.text, layout.qr!)) : "";

  const document = await PDFDocument.create({ updateMetadata: false });
  deflateNatively(document.context);
  const fonts = await stampFonts(document, lines);
  const xObjects: Record<string, PDFRef> = {};

  const content = ["q", "1 g", `0 0 ${num(layout.width)} ${num(layout.height)} re`, "f"];
  if (image && layout.image) {
    xObjects[IMAGE_NAME] = timedSync("image-qr", () => embedStampImage(document, image));
    content.push(imageOperators(image, layout.image));
  }
  if (qrContent) content.push(qrContent);
  content.push(textOperators(lines, fonts, layout.text, layout.fontSize));
  const inset = layout.border / 2;
  content.push(`${num(layout.border)} w`, "0.45 G", `${num(inset)} ${num(inset)} ${num(layout.width - layout.border)} ${num(layout.height - layout.border)} re`, "S", "Q");

  const context = document.context;
  const form = context.flateStream(content.join("\n"), {
    Type: "XObject",
    Subtype: "Form",
    BBox: [0, 0, layout.width, layout.height],
    Matrix: [1, 0, 0, 1, 0, 0],
    Resources: {
      Font: { [FONT_NAMES.body]: fonts.regular.ref, [FONT_NAMES.title]: fonts.bold.ref },
      ...(Object.keys(xObjects).length > 0 ? { XObject: xObjects } : {}),
    },
  });
  const formXObject = context.register(form);
  // a per-stamp subset is written on flush, after every glyph has been shown
  await document.flush();
  return { document, formXObject, width: layout.width, height: layout.height };
}

/**
 * The prepared per-process subset of each font when it holds every character the stamp shows in
 * that font (almost always); otherwise a subset made for this stamp alone, as pdf-lib does it.
 */
async function stampFonts(document: PDFDocument, lines: StampLine[]): Promise<StampFonts> {
  const prepared = await preparedStampFaces();
  const face = async (font: PreparedFace, style: "regular" | "bold", postscriptName: string): Promise<StampFace> => {
    const shown = lines.filter((line) => (line.style === "body") === (style === "regular"));
    if (shown.every((line) => font.covers(line.text))) return font.copyInto(document.context);
    document.registerFontkit(parsedOnceFontkit);
    const files = await loadStampFonts();
    return pdfLibFace(await document.embedFont(files[style], { subset: true, customName: subsetName(postscriptName) }));
  };
  return { regular: await face(prepared.regular, "regular", "DejaVuSans"), bold: await face(prepared.bold, "bold", "DejaVuSans-Bold") };
}

// pdf-lib's way of writing a number: plain decimals, never an exponent.
function num(n: number): string {
  const text = String(n);
  return text.includes("e") ? n.toFixed(20).replace(/\.?0+$/, "") : text;
}

function imageOperators(image: StampImage, box: StampBox): string {
  const scale = Math.min(box.width / image.orientedWidth, box.height / image.orientedHeight);
  const width = image.orientedWidth * scale;
  const height = image.orientedHeight * scale;
  const x = box.x + (box.width - width) / 2;
  const y = box.y + (box.height - height) / 2;
  return `q ${orientationMatrix(image.orientation, x, y, width, height).map(num).join(" ")} cm /${IMAGE_NAME} Do Q`;
}

// Per EXIF orientation, display X and Y (0..1, Y down) as a·s + b·t + c of stored s, t (0..1, t down).
const ORIENTATIONS: Record<ExifOrientation, [number, number, number, number, number, number]> = {
  1: [1, 0, 0, 0, 1, 0],
  2: [-1, 0, 1, 0, 1, 0],
  3: [-1, 0, 1, 0, -1, 1],
  4: [1, 0, 0, 0, -1, 1],
  5: [0, 1, 0, 1, 0, 0],
  6: [0, -1, 1, 1, 0, 0],
  7: [0, -1, 1, -1, 0, 1],
  8: [0, 1, 0, -1, 0, 1],
};

/** Maps the image's unit square (stored pixels, y up) onto the displayed rectangle on the stamp. */
function orientationMatrix(orientation: ExifOrientation, x: number, y: number, w: number, h: number) {
  const [ax, bx, cx, ay, by, cy] = ORIENTATIONS[orientation];
  // image space has v = 1 - t, so t-terms flip sign; PDF y runs up, so display Y flips too
  return [w * ax, -h * ay, -w * bx, h * by, x + w * (bx + cx), y + h - h * (by + cy)] as const;
}

const TEXT_COLORS: Record<StampLineStyle, [number, number, number]> = {
  banner: [0.72, 0.05, 0.05],
  title: [0, 0, 0],
  body: [0.2, 0.2, 0.2],
};

function textOperators(
  lines: StampLine[],
  fonts: StampFonts,
  box: StampBox,
  sizes: { max: number; min: number },
): string {
  const text = fitStampText(lines, fonts, box, sizes);
  const top = box.y + (box.height + blockHeight(text.rows.length, text.fontSize)) / 2;
  // the clip is a last guard: fitStampText already keeps every glyph inside the box
  const ops = ["q", `${num(box.x)} ${num(box.y)} ${num(box.width)} ${num(box.height)} re`, "W", "n", "BT"];
  text.rows.forEach((row, i) => {
    const font = fontFor(fonts, row.style);
    ops.push(
      `/${FONT_NAMES[row.style]} ${num(text.fontSize)} Tf`,
      `${TEXT_COLORS[row.style].map(num).join(" ")} rg`,
      `1 0 0 1 ${num(box.x)} ${num(top - text.ascent - i * text.lineHeight)} Tm`,
      `${font.encodeText(row.text).toString()} Tj`,
    );
  });
  ops.push("ET", "Q");
  return ops.join("\n");
}
