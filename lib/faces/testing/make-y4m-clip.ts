import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { fixturePath } from "@/test/fixtures-dir";

/**
 * Test and benchmark support: the fake-camera clips (Y4M, 640x480 I420 at 5 fps, what Chromium's
 * --use-file-for-fake-video-capture reads), drawn from the committed photos with ImageMagick instead of
 * storing 9 MB of raw video. The recipe is the one the photo collection used with ffmpeg: a slow centred
 * zoom (1 + 0.0015 per frame) on a crop of person A, and a still clip of a room with nobody in it.
 */
const CLIPS = {
  "face-zoom": { photo: "faces/person-a-obama/a3-white-house-event.jpg", prepare: ["-crop", "960x720+290+80", "+repage", "-resize", "1280x960!"], frames: 15, zoom: 0.0015 },
  "no-face": { photo: "faces/no-face/no-face-chandelier-480x640.jpg", prepare: [] as string[], frames: 5, zoom: 0 },
} as const;
export type ClipName = keyof typeof CLIPS;

const run = promisify(execFile);
const WIDTH = 640;
const HEIGHT = 480;

/** The clip's file (made once per machine and recipe, in the temporary folder); asynchronous, so a test worker keeps answering its runner. */
export async function makeY4mClip(name: ClipName): Promise<string> {
  const clip = CLIPS[name];
  const file = path.join(os.tmpdir(), `fv-clip-v1-${name}.y4m`);
  if (fs.existsSync(file)) return file;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-clip-"));
  const source = path.join(dir, "source.png");
  await run("convert", [fixturePath(clip.photo), ...clip.prepare, source]);
  const [sw, sh] = (await run("identify", ["-format", "%w %h", source])).stdout.split(" ").map(Number);
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F5:1 Ip A1:1 C420jpeg\n`)];
  for (let n = 0; n < clip.frames; n++) {
    const z = 1 + clip.zoom * n;
    const w = Math.round(sw / z);
    const h = Math.round(sh / z);
    const crop = ["-crop", `${w}x${h}+${Math.round((sw - w) / 2)}+${Math.round((sh - h) / 2)}`, "+repage"];
    const { stdout: rgb } = await run("convert", [source, ...crop, "-resize", `${WIDTH}x${HEIGHT}!`, "-depth", "8", "rgb:-"], { encoding: "buffer", maxBuffer: 16 * 1024 * 1024 });
    parts.push(Buffer.from("FRAME\n"), toI420(rgb));
  }
  fs.writeFileSync(`${file}.${process.pid}`, Buffer.concat(parts));
  fs.renameSync(`${file}.${process.pid}`, file);
  fs.rmSync(dir, { recursive: true, force: true });
  return file;
}

/** RGB → BT.601 full-range YCbCr (C420jpeg), chroma averaged over each 2x2 block. */
function toI420(rgb: Buffer): Buffer {
  const out = Buffer.alloc(WIDTH * HEIGHT * 1.5);
  const cb = WIDTH * HEIGHT;
  const cr = cb + (WIDTH / 2) * (HEIGHT / 2);
  const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const i = (y * WIDTH + x) * 3;
      out[y * WIDTH + x] = clamp(0.299 * rgb[i] + 0.587 * rgb[i + 1] + 0.114 * rgb[i + 2]);
    }
  }
  for (let y = 0; y < HEIGHT / 2; y++) {
    for (let x = 0; x < WIDTH / 2; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
        const i = ((2 * y + dy) * WIDTH + 2 * x + dx) * 3;
        r += rgb[i] / 4;
        g += rgb[i + 1] / 4;
        b += rgb[i + 2] / 4;
      }
      out[cb + y * (WIDTH / 2) + x] = clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
      out[cr + y * (WIDTH / 2) + x] = clamp(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
    }
  }
  return out;
}
