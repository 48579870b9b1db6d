// `npx tsx bench/draw-stamp-quick.ts`: CPU of drawing one stamp (image + QR + text) in its scratch
// document (the server then copies it into the signed file), in this process, without the server. Prints figures only.
import { readFileSync } from "node:fs";
import type { StampData } from "@/lib/stamp/build-stamp-content";
import { sampleSigner } from "@/lib/stamp/test-support/sample-signer";
import { drawStamp } from "@/lib/stamp/draw-stamp";
import { readStampImage } from "@/lib/stamp/read-stamp-image";
import { fixturePath } from "@/test/fixtures-dir";

const data: StampData = sampleSigner;

async function main() {
  const image = readStampImage(readFileSync(fixturePath("images/portrait-413x531.jpg")), "portrait-413x531.jpg");
  // every stamp has its own signer, token and time, as in production
  let count = 0;
  const once = async () => {
    const txToken = `AbCdEfGhIj${String(++count).padStart(10, "0")}`;
    const signer = { ...data, names: `María José ${count}`, personId: String(40000000 + count), txToken, signedAt: new Date(Date.UTC(2026, 10, 23, 0, 0, count)), verifyUrl: `https://firma.example.com/verificar/${txToken}` };
    const stamp = await drawStamp({ data: signer, image, qr: { text: signer.verifyUrl }, size: 1 });
    return stamp.document.context.enumerateIndirectObjects().length;
  };
  for (let i = 0; i < 20; i++) await once();
  const n = 200;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let objects = 0;
  for (let i = 0; i < n; i++) objects = await once();
  const cpu = process.cpuUsage(cpu0);
  console.log(`drawStamp, image + QR: ${((performance.now() - t0) / n).toFixed(2)} ms wall, ${((cpu.user + cpu.system) / 1000 / n).toFixed(2)} ms CPU per stamp, ${objects} objects`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
