import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** One rendered page: 8-bit gray, row by row from the top-left corner (0 black, 255 white). */
export type PageRaster = { width: number; height: number; gray: Uint8Array };

export type RenderLimits = {
  /** The longer side of every page in pixels, whatever its MediaBox (a 200-inch page costs what A4 costs). */
  sideLimit: number;
  /** pdftoppm is stopped after this long; a file it cannot draw in time is not compared. */
  timeoutMs: number;
};

export const RENDER_LIMITS: RenderLimits = { sideLimit: 1000, timeoutMs: 60_000 };

/** Rendered pages of one document version, read one at a time (a 50-page file stays on disk, not in the heap). */
export type RenderedDocument = { pageCount: number; page(index: number): Promise<PageRaster>; dispose(): Promise<void> };

/**
 * Renders `pages` (1-based) of a PDF with poppler's pdftoppm in a child process, gray, each page
 * scaled into a `sideLimit` square. Throws when pdftoppm fails or runs out of time: the caller
 * decides what an uncompared page means.
 */
export async function renderPages(pdf: Uint8Array, pages: number[], limits: RenderLimits = RENDER_LIMITS): Promise<RenderedDocument> {
  const dir = await mkdtemp(path.join(tmpdir(), "verify-render-"));
  try {
    const input = path.join(dir, "in.pdf");
    await writeFile(input, pdf);
    const deadline = Date.now() + limits.timeoutMs;
    // consecutive pages in one run: pdftoppm parses the file once per run
    for (const [first, last] of runsOf(pages)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error("rendering ran out of time");
      await run(["-gray", "-scale-to", String(limits.sideLimit), "-f", String(first), "-l", String(last), input, path.join(dir, "p")], left);
    }
    const files = new Map<number, string>();
    for (const name of await readdir(dir)) {
      const match = /^p-0*(\d+)\.pgm$/.exec(name);
      if (match) files.set(Number(match[1]), path.join(dir, name));
    }
    const missing = pages.find((page) => !files.has(page));
    if (missing !== undefined) throw new Error(`page ${missing} was not rendered`);
    return {
      pageCount: pages.length,
      page: async (index) => readPgm(await readFile(files.get(index)!)),
      dispose: () => rm(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

function run(args: string[], timeout: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile("pdftoppm", args, { timeout, killSignal: "SIGKILL", maxBuffer: 1 << 20 }, (error) => (error ? reject(new Error(`pdftoppm failed: ${error.killed ? "timed out" : error.message.split("\n")[0]}`)) : resolve()));
  });
}

function runsOf(pages: number[]): [number, number][] {
  const sorted = [...new Set(pages)].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const page of sorted) {
    const last = runs.at(-1);
    if (last && last[1] === page - 1) last[1] = page;
    else runs.push([page, page]);
  }
  return runs;
}

/** Binary PGM (P5, maxval 255) as pdftoppm -gray writes it. */
export function readPgm(bytes: Buffer): PageRaster {
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(bytes.toString("latin1", 0, 64));
  if (!header) throw new Error("pdftoppm wrote an unexpected image");
  const width = Number(header[1]);
  const height = Number(header[2]);
  const gray = new Uint8Array(bytes.buffer, bytes.byteOffset + header[0].length, width * height);
  return { width, height, gray };
}
