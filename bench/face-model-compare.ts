// Compares descriptor models on people the threshold was not chosen on, from the per-pair
// similarities bench/face-model-embeddings.ts saved (no model runs here). For each model: the
// threshold meeting FAR ≤ 0.1 % is chosen on half of the people and the rates are measured on the
// other half, both ways round (2 folds), for the fixed split `calibrate --holdout` uses (every other
// person by name) and for 20 seeded random splits. Prints figures only; it never asserts.
//
// usage: npx tsx bench/face-model-compare.ts [model ...] [--plot=FILE.svg]   (default: every bench/results/face-pairs-*.tsv)
//        --plot draws the first model's DET curve over the held-out pairs of the fixed split, marking DEFAULT_FACE_MATCH_THRESHOLD
import fs from "node:fs";
import { CalibrationError, chooseThreshold, measureRates, type FacePair } from "@/lib/faces/calibrate-threshold";
import { clopperPearson } from "@/lib/faces/clopper-pearson";
import { drawDetCurve } from "@/lib/faces/draw-det-curve";
import { DEFAULT_FACE_MATCH_THRESHOLD } from "@/lib/faces/match-faces";
import { seededRandom } from "@/test/seeded-random";

const FAR = 0.001;
const RANDOM_SPLITS = 20;

type PersonPair = FacePair & { people: [string, string] };

function readPairs(model: string): PersonPair[] {
  const lines = fs.readFileSync(`bench/results/face-pairs-${model}.tsv`, "utf8").trim().split("\n").slice(1);
  return lines.map((line) => line.split("\t")).filter((f) => f[4] !== "error").map(([a, b, pa, pb, s]) => ({ a, b, people: [pa, pb], same: pa === pb, similarity: Math.round(Number(s) * 1000) / 1000 }));
}


function twoFolds(pairs: PersonPair[], half: Set<string>) {
  const within = (inside: boolean) => pairs.filter((p) => half.has(p.people[0]) === inside && half.has(p.people[1]) === inside);
  const totals = { fa: 0, impostors: 0, fr: 0, genuine: 0, thresholds: [] as number[] };
  for (const [tuning, held] of [[within(true), within(false)], [within(false), within(true)]]) {
    const threshold = chooseThreshold(tuning, FAR);
    const { falseAccepts, falseRejects } = measureRates(held, threshold);
    totals.fa += falseAccepts.errors; totals.impostors += falseAccepts.trials;
    totals.fr += falseRejects.errors; totals.genuine += falseRejects.trials;
    totals.thresholds.push(threshold);
  }
  return totals;
}

function main(): void {
  const args = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
  const plot = process.argv.find((arg) => arg.startsWith("--plot="))?.slice(7);
  const models = args.length > 0 ? args : fs.readdirSync("bench/results").filter((f) => /^face-pairs-.*\.tsv$/.test(f)).map((f) => f.slice(11, -4));
  console.log(`threshold chosen for FAR ≤ ${FAR * 100} % on one half of the people, rates measured on the other half (2 folds pooled)\n`);
  if (plot) {
    const pairs = readPairs(models[0]);
    const people = [...new Set(pairs.flatMap((p) => p.people))].sort();
    const half = new Set(people.filter((_, i) => i % 2 === 0));
    const heldOut = pairs.filter((p) => half.has(p.people[0]) === half.has(p.people[1]));
    fs.writeFileSync(plot, drawDetCurve(heldOut, { title: `${models[0]}: DET on the held-out pairs (15 people, each half held out once)`, threshold: DEFAULT_FACE_MATCH_THRESHOLD }));
    console.log(`DET curve written to ${plot}\n`);
  }
  for (const model of models) {
    const pairs = readPairs(model);
    try {
      compare(model, pairs);
    } catch (error) {
      if (!(error instanceof CalibrationError)) throw error;
      console.log(`${model}: ${error.message}; ROC AUC ${auc(pairs).toFixed(3)} (1 separates perfectly, 0.5 is chance)\n`);
    }
  }
}

/** Share of (same-person, different-person) pairs ordered right: how well the scores separate at all. */
function auc(pairs: PersonPair[]): number {
  const genuine = pairs.filter((p) => p.same).map((p) => p.similarity);
  const impostors = pairs.filter((p) => !p.same).map((p) => p.similarity);
  let ordered = 0;
  for (const g of genuine) for (const i of impostors) ordered += g > i ? 1 : g === i ? 0.5 : 0;
  return ordered / (genuine.length * impostors.length);
}

function compare(model: string, pairs: PersonPair[]): void {
  {
    const people = [...new Set(pairs.flatMap((p) => p.people))].sort();
    const fixed = twoFolds(pairs, new Set(people.filter((_, i) => i % 2 === 0)));
    const far = clopperPearson(fixed.fa, fixed.impostors);
    const frr = clopperPearson(fixed.fr, fixed.genuine);
    const next = seededRandom(38);
    const splits = Array.from({ length: RANDOM_SPLITS }, () => twoFolds(pairs, new Set(people.filter(() => next() < 0.5))));
    const sum = (key: "fa" | "impostors" | "fr" | "genuine") => splits.reduce((total, s) => total + s[key], 0);
    const thresholds = splits.flatMap((s) => s.thresholds).sort((a, b) => a - b);
    const all = chooseThreshold(pairs, FAR);
    const genuineAll = pairs.filter((p) => p.same);
    console.log(`${model} (${people.length} people, ${genuineAll.length} same-person and ${pairs.length - genuineAll.length} different-person pairs)`);
    console.log(`  fixed split: thresholds ${fixed.thresholds.join(" / ")}; held out: false accepts ${fixed.fa}/${fixed.impostors} (${pct(fixed.fa / fixed.impostors)}, 95 % CI ${pct(far.lower)}–${pct(far.upper)}), false rejects ${fixed.fr}/${fixed.genuine} (${pct(fixed.fr / fixed.genuine)}, 95 % CI ${pct(frr.lower)}–${pct(frr.upper)})`);
    console.log(`  ${RANDOM_SPLITS} random splits: thresholds ${thresholds[0]}–${thresholds[thresholds.length - 1]} (median ${thresholds[thresholds.length >> 1]}); held out: false accepts ${sum("fa")}/${sum("impostors")} (${pct(sum("fa") / sum("impostors"))}), false rejects ${sum("fr")}/${sum("genuine")} (${pct(sum("fr") / sum("genuine"))})`);
    console.log(`  threshold for FAR ≤ ${FAR * 100} % chosen on all ${people.length} people: ${all} (in-sample FRR at it ${pct(genuineAll.filter((p) => p.similarity < all).length / genuineAll.length)}, not a held-out figure); ROC AUC ${auc(pairs).toFixed(3)}\n`);
  }
}

const pct = (value: number) => `${(value * 100).toFixed(2)} %`;

main();
