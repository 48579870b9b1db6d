// `npm run faces -- <command>`: the face match, run by an operator on their own photos.
//   score PAIRS.csv       one decision per reference,selfie pair, as the signer pages would decide it
//   calibrate PEOPLE.tsv  the threshold that meets a false-accept target, with honest (held-out) rates
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { parse } from "csv-parse/sync";
import { analyzeFace } from "@/lib/faces/analyze-face";
import { CalibrationError, type MeasuredRate } from "@/lib/faces/calibrate-threshold";
import { calibrateFaceThreshold, type FaceThresholdCalibration } from "@/lib/faces/calibrate-face-threshold";
import { drawDetCurve } from "@/lib/faces/draw-det-curve";
import { configuredFaceMatchThreshold } from "@/lib/faces/match-faces";
import { scoreFacePairs } from "@/lib/faces/score-face-pairs";

const usage = `usage: npm run faces -- <command>
  score PAIRS.csv [--json] [--threshold T]
      PAIRS.csv rows: reference,selfie (image paths, relative to the file). Prints
      reference,selfie,similarity,decision per pair; decision is match, no-match or error:<reason>.
      T defaults to FACE_MATCH_THRESHOLD, else the built-in default.
  calibrate PEOPLE.tsv [--far 0.001] [--holdout] [--plot FILE.svg]
      PEOPLE.tsv columns: file, person. Prints the threshold meeting the false-accept target; with
      --holdout it chooses it on half of the people and prints false accepts and false rejects on
      the others, with 95 % Clopper–Pearson bounds. --plot writes a DET curve.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { json: { type: "boolean" }, threshold: { type: "string" }, far: { type: "string" }, holdout: { type: "boolean" }, plot: { type: "string" }, help: { type: "boolean" } },
});

/** Paths in the list are relative to the list, so a folder of photos and its list move together. */
const readerFor = (listFile: string) => (file: string) => readFile(path.resolve(path.dirname(listFile), file)).then((buffer) => new Uint8Array(buffer));

async function score(listFile: string): Promise<void> {
  const threshold = values.threshold === undefined ? configuredFaceMatchThreshold() : Number(values.threshold);
  if (!(threshold > 0 && threshold <= 1)) throw new UsageError(`--threshold must be in (0, 1], got ${values.threshold}`);
  const rows = parse(await readFile(listFile), { skip_empty_lines: true, trim: true, relax_column_count: false }) as string[][];
  // a header row is allowed and skipped
  const pairs = rows.filter((row, i) => !(i === 0 && row[0] === "reference" && row[1] === "selfie")).map((row, i) => {
    if (row.length !== 2) throw new UsageError(`${listFile}: row ${i + 1} must be reference,selfie`);
    return { reference: row[0], selfie: row[1] };
  });
  if (!values.json) process.stdout.write("reference,selfie,similarity,decision\n");
  for await (const row of scoreFacePairs({ pairs, threshold }, { readImage: readerFor(listFile), analyzeFace })) {
    if (values.json) process.stdout.write(JSON.stringify(row) + "\n");
    else process.stdout.write([row.reference, row.selfie, row.similarity?.toFixed(3) ?? "", row.decision].map(csvField).join(",") + "\n");
  }
}

async function calibrate(listFile: string): Promise<void> {
  const far = values.far === undefined ? 0.001 : Number(values.far);
  const rows = parse(await readFile(listFile), { delimiter: "\t", columns: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
  const photos = rows.map((row, i) => {
    if (!row.file || !row.person) throw new UsageError(`${listFile}: row ${i + 2} needs file and person`);
    return { file: row.file, person: row.person };
  });
  const result = await calibrateFaceThreshold({ photos, far, holdout: values.holdout ?? false }, { readImage: readerFor(listFile), analyzeFace });
  printCalibration(result, far);
  if (values.plot) {
    const title = result.holdout ? `DET on ${result.heldOutPeople.length} held-out people` : `DET on all ${result.people} people (in-sample)`;
    await writeFile(values.plot, drawDetCurve(result.pairs, { title, threshold: result.threshold }));
    console.log(`DET curve written to ${values.plot}`);
  }
}

function printCalibration(result: FaceThresholdCalibration, far: number): void {
  for (const { file, reason } of result.skipped) console.log(`skipped ${file}: ${reason}`);
  console.log(`${result.photos} photos of ${result.people} people described`);
  if (!result.holdout) {
    console.log(`threshold for false accepts ≤ ${far * 100} %: ${result.threshold} (chosen on all the photos)`);
    console.log("rates not reported: measured on the photos the threshold was chosen on they would flatter it; run with --holdout");
    return;
  }
  console.log(`threshold for false accepts ≤ ${far * 100} %: ${result.threshold}, chosen on ${result.tuningPeople.join(", ")}`);
  console.log(`measured on the held-out people ${result.heldOutPeople.join(", ")}:`);
  console.log(`  false accepts ${describe(result.falseAccepts)}`);
  console.log(`  false rejects ${describe(result.falseRejects)}`);
}

const pct = (value: number) => `${(value * 100).toFixed(2)} %`;
const describe = (rate: MeasuredRate) => `${rate.errors}/${rate.trials} = ${pct(rate.rate)} (95 % CI ${pct(rate.lower)}–${pct(rate.upper)})`;
const csvField = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

class UsageError extends Error {}

async function main(): Promise<void> {
  const [command, listFile] = positionals;
  if (values.help || !command) return void console.log(usage);
  if (!listFile) throw new UsageError(`${command}: missing the list file`);
  if (command === "score") return score(listFile);
  if (command === "calibrate") return calibrate(listFile);
  throw new UsageError(`unknown command ${command}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      console.error(`cannot read ${(error as NodeJS.ErrnoException).path}`);
      process.exit(2);
    }
    if (error instanceof UsageError || error instanceof CalibrationError || error instanceof RangeError) {
      console.error(`${error.message}\n\n${usage}`);
      process.exit(2);
    }
    console.error(error);
    process.exit(1);
  },
);
