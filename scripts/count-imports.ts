// Prints the figures of the import graph: `npm run imports:count` (issue 28's before/after).
import path from "node:path";
import { cyclesOf, layering, libFolderGraph, readImportGraph } from "./import-graph";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const files = readImportGraph(root);
const folders = libFolderGraph(files);
const folderCycles = cyclesOf(folders);
const fileCycles = cyclesOf(files);
const { arrows, upward, layers } = layering(folders);
console.log(`lib folders: ${folders.size}, arrows between them: ${arrows}`);
console.log(`upward arrows (against the best order found of the folders): ${upward}`);
console.log(`folders in a cycle: ${folderCycles.reduce((n, c) => n + c.length, 0)} (${folderCycles.map((c) => c.length).join(", ") || "none"})`);
console.log(`layers (longest chain of downward arrows): ${layers}`);
console.log(`file cycles (type-only imports included): ${fileCycles.length}`);
for (const cycle of fileCycles) console.log(`  ${cycle.sort().join(" ")}`);
