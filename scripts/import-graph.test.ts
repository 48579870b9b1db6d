import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cyclesOf, layering, libFolderGraph, readImportGraph } from "./import-graph";

const root = path.resolve(__dirname, "..");

describe("import graph", () => {
  const files = readImportGraph(root);

  it("has no import cycle between files, type-only imports included", () => {
    expect(cyclesOf(files)).toEqual([]);
  });

  it("has no cycle between lib/ folders either: the domains too form layers", () => {
    expect(cyclesOf(libFolderGraph(files))).toEqual([]);
  });

  it("leaves test helpers (testing/) out, as the eslint layer rule does", () => {
    expect([...files.keys()].filter((file) => file.split(path.sep).includes("testing"))).toEqual([]);
  });

  it("finds a cycle made of a type-only import, and counts the arrow that runs up", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-graph-"));
    fs.mkdirSync(path.join(dir, "lib", "a"), { recursive: true });
    fs.mkdirSync(path.join(dir, "lib", "b"), { recursive: true });
    fs.writeFileSync(path.join(dir, "lib", "a", "one.ts"), 'import type { Two } from "@/lib/b/two";\nexport type One = Two[];\n');
    fs.writeFileSync(path.join(dir, "lib", "b", "two.ts"), 'import { type One } from "../a/one";\nexport type Two = { one?: One };\n');
    fs.writeFileSync(path.join(dir, "lib", "b", "three.ts"), '// import { nothing } from "../a/one";\nexport const three = 3;\n');
    const graph = readImportGraph(dir);
    expect(cyclesOf(graph).map((cycle) => cycle.sort())).toEqual([[path.join("lib", "a", "one.ts"), path.join("lib", "b", "two.ts")]]);
    expect(graph.get(path.join("lib", "b", "three.ts"))).toEqual(new Set());
    expect(layering(libFolderGraph(graph))).toEqual({ arrows: 2, upward: 1, layers: 2 });
  });
});
