import { randomBytes } from "node:crypto";
import { deflateSync } from "node:zlib";
import {
  PDFContentStream,
  PDFDocument,
  type PDFContext,
  beginText,
  clip,
  concatTransformationMatrix,
  drawObject,
  endPath,
  endText,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  setFillingGrayscaleColor,
  setFillingRgbColor,
  setFontAndSize,
  setLineWidth,
  setStrokingGrayscaleColor,
  setTextMatrix,
  showText,
  fill,
  stroke,
  type PDFOperator,
  type PDFRef,
} from "pdf-lib";
import { buildStampContent, type StampData, type StampLine, type StampLineStyle } from "@/lib/stamp/build-stamp-content";
import { drawQrCode } from "@/lib/stamp/draw-qr-code";
import { embedStampImage } from "@/lib/stamp/embed-stamp-image";
import { blockHeight, fitStampText, fontFor, type StampFonts } from "@/lib/stamp/fit-stamp-text";
import { layoutProcessStamp, layoutStamp, type StampBox, type StampOrientation, type StampSize } from "@/lib/stamp/layout-stamp";
import { loadStampFonts, parsedOnceFontkit } from "@/lib/stamp/load-stamp-fonts";
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
  const qrOps = qr && layout.qr ? timedSync("image-qr", () => drawQrCode(qr.text, layout.qr!)) : [];

  const document = await PDFDocument.create({ updateMetadata: false });
  deflateNatively(document.context);
  document.registerFontkit(parsedOnceFontkit);
  const files = await loadStampFonts();
  const fonts: StampFonts = {
    regular: await document.embedFont(files.regular, { subset: true, customName: subsetName("DejaVuSans") }),
    bold: await document.embedFont(files.bold, { subset: true, customName: subsetName("DejaVuSans-Bold") }),
  };
  const xObjects: Record<string, PDFRef> = {};

  const ops: PDFOperator[] = [
    pushGraphicsState(),
    setFillingGrayscaleColor(1),
    rectangle(0, 0, layout.width, layout.height),
    fill(),
  ];
  if (image && layout.image) {
    xObjects[IMAGE_NAME] = timedSync("image-qr", () => embedStampImage(document, image));
    ops.push(...imageOperators(image, layout.image));
  }
  ops.push(...qrOps);
  ops.push(...textOperators(lines, fonts, layout.text, layout.fontSize));
  const inset = layout.border / 2;
  ops.push(
    setLineWidth(layout.border),
    setStrokingGrayscaleColor(0.45),
    rectangle(inset, inset, layout.width - layout.border, layout.height - layout.border),
    stroke(),
    popGraphicsState(),
  );

  const context = document.context;
  // the content stream encoded here and deflated by node:zlib (pdf-lib's own encoder deflates in JavaScript)
  const content = PDFContentStream.of(context.obj({}), ops, false).getUnencodedContents();
  const form = context.flateStream(content, {
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
  // fonts are subset and written on flush, after every glyph has been shown
  await document.flush();
  return { document, formXObject, width: layout.width, height: layout.height };
}

/**
 * Every stream pdf-lib deflates for this scratch document (font subsets, ToUnicode maps) goes
 * through node:zlib instead of pako: the same FlateDecode data, several times faster.
 */
function deflateNatively(context: PDFContext): void {
  context.flateStream = (contents, dict = {}) => context.stream(deflateSync(typeof contents === "string" ? Buffer.from(contents, "latin1") : contents), { ...dict, Filter: "FlateDecode" });
}

// ISO 32000-1 9.6.4: a subset font's name starts with a six-capital tag and "+"; PDF/A checkers require it.
function subsetName(postscriptName: string): string {
  return `${Array.from(randomBytes(6), (b) => String.fromCharCode(65 + (b % 26))).join("")}+${postscriptName}`;
}

function imageOperators(image: StampImage, box: StampBox): PDFOperator[] {
  const scale = Math.min(box.width / image.orientedWidth, box.height / image.orientedHeight);
  const width = image.orientedWidth * scale;
  const height = image.orientedHeight * scale;
  const x = box.x + (box.width - width) / 2;
  const y = box.y + (box.height - height) / 2;
  return [
    pushGraphicsState(),
    concatTransformationMatrix(...orientationMatrix(image.orientation, x, y, width, height)),
    drawObject(IMAGE_NAME),
    popGraphicsState(),
  ];
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
): PDFOperator[] {
  const text = fitStampText(lines, fonts, box, sizes);
  const top = box.y + (box.height + blockHeight(text.rows.length, text.fontSize)) / 2;
  // the clip is a last guard: fitStampText already keeps every glyph inside the box
  const ops: PDFOperator[] = [pushGraphicsState(), rectangle(box.x, box.y, box.width, box.height), clip(), endPath(), beginText()];
  text.rows.forEach((row, i) => {
    const font = fontFor(fonts, row.style);
    ops.push(
      setFontAndSize(FONT_NAMES[row.style], text.fontSize),
      setFillingRgbColor(...TEXT_COLORS[row.style]),
      setTextMatrix(1, 0, 0, 1, box.x, top - text.ascent - i * text.lineHeight),
      showText(font.encodeText(row.text)),
    );
  });
  ops.push(endText(), popGraphicsState());
  return ops;
}
