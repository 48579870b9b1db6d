// `npx tsx bench/stamp-renders.ts DIR`: draws a fixed set of stamps (image, QR, ligatures, accents, a
// fallback script) and writes each as DIR/<name>.pdf, .png (pdftoppm -r 150) and .txt (pdftotext), to
// compare two versions of the stamp drawing pixel by pixel (`compare -metric AE`). Prints sizes only.
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { StampData } from "@/lib/stamp/build-stamp-content";
import { sampleSigner } from "@/lib/stamp/test-support/sample-signer";
import { buildStampContent } from "@/lib/stamp/build-stamp-content";
import { drawStamp } from "@/lib/stamp/draw-stamp";
import { readStampImage } from "@/lib/stamp/read-stamp-image";
import { renderStamp } from "@/lib/stamp/test-support/render-stamp";
import { fixturePath } from "@/test/fixtures-dir";

const signer: StampData = sampleSigner;

async function main() {
  const dir = process.argv[2];
  if (!dir) throw new Error("usage: bench/stamp-renders.ts DIR");
  mkdirSync(dir, { recursive: true });
  const image = readStampImage(readFileSync(fixturePath("images/portrait-413x531.jpg")), "portrait-413x531.jpg");
  const cases: Record<string, Parameters<typeof drawStamp>[0]> = {
    "image-qr-1": { data: signer, image, qr: { text: buildStampContent(signer, { type: "auto" }).qrText! }, size: 1 },
    "image-qr-2": { data: signer, image, qr: { text: buildStampContent(signer, { type: "auto" }).qrText! }, size: 2 },
    ligatures: { data: { ...signer, names: "Fiona Offilia", lastNames: "Ruffles Affleck", email: "fiona.offilia@oficina-fiscal.example.gob.pe" }, image, qr: { text: "https://example.com/ffi" }, size: 1 },
    "long-names": { data: { ...signer, names: "María de los Ángeles Guadalupe", lastNames: "Fernández de Córdoba y Ruiz-Tagle Echeverría", email: "maria.de.los.angeles.fernandez@municipalidad-example.gob.pe" }, qr: { text: "x" }, size: 1 },
    "spanish-signs": { data: { ...signer, names: "Íñigo Ángel", lastNames: "Muñoz Güemes ¿Úrsula? ¡Éxito!", environment: "production" }, image, qr: null, size: 1 },
    "other-script": { data: { ...signer, names: "Łukasz Ĳsbrand", lastNames: "Дмитрий Ødegård", signType: "agente" }, image, qr: { text: "Łódź" }, size: 1 },
    process: { data: signer, qr: null, size: 1, orientation: "horizontal" },
  };
  for (const [name, input] of Object.entries(cases)) {
    const rendered = await renderStamp(await drawStamp(input), 150, 20);
    writeFileSync(path.join(dir, `${name}.pdf`), rendered.pdf);
    writeFileSync(path.join(dir, `${name}.png`), readFileSync(rendered.pngPath));
    writeFileSync(path.join(dir, `${name}.txt`), rendered.text);
    console.log(`${name}: ${statSync(path.join(dir, `${name}.pdf`)).size} bytes`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
