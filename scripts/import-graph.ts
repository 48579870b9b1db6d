// The project's import graph, read from the sources: files, the lib/ folders they belong to, and the
// cycles and layers of both. Used by `npm run imports:count` (figures) and by import-graph.test.ts
// (0 cycles, type-only imports included, which eslint's import/no-cycle does not see).
import fs from "node:fs";
import path from "node:path";

const SOURCE_DIRS = ["app", "components", "lib", "db"];
const EXTENSIONS = [".ts", ".tsx", ".mts", ".js", ".mjs"];
// `import x from "y"`, `import type { x } from "y"`, `export { x } from "y"`, `import "y"`, `import("y")`
const IMPORT_PATTERN = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g;

export type ImportGraph = Map<string, Set<string>>;

function sourceFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      // test helpers (testing/) may reach up, as tests do (the same exemption as the eslint layer rule)
      if (entry.isDirectory()) {
        if (entry.name !== "testing") walk(full);
      }
      else if (EXTENSIONS.includes(path.extname(entry.name)) && !/\.(test|spec)\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) files.push(full);
    }
  };
  for (const dir of SOURCE_DIRS) if (fs.existsSync(path.join(root, dir))) walk(path.join(root, dir));
  return files;
}

function resolveSpecifier(root: string, from: string, specifier: string): string | undefined {
  const base = specifier.startsWith("@/") ? path.join(root, specifier.slice(2)) : specifier.startsWith(".") ? path.resolve(path.dirname(from), specifier) : undefined;
  if (!base) return undefined;
  for (const candidate of [base, ...EXTENSIONS.map((ext) => base + ext), ...EXTENSIONS.map((ext) => path.join(base, "index" + ext))]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** File → files it imports (paths relative to root), type-only imports included. */
export function readImportGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of sourceFiles(root)) {
    const text = fs.readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|(^|[^:])\/\/.*$/gm, "$1");
    const targets = new Set<string>();
    for (const match of text.matchAll(IMPORT_PATTERN)) {
      const target = resolveSpecifier(root, file, match[1]);
      if (target && target !== file) targets.add(path.relative(root, target));
    }
    graph.set(path.relative(root, file), targets);
  }
  return graph;
}

/** `lib/pdf/x.ts` → `lib/pdf`; `lib/errors.ts` → `lib/errors.ts`; other files → their top folder. */
export function folderOf(file: string): string {
  const parts = file.split(path.sep);
  return parts[0] === "lib" && parts.length > 2 ? `lib/${parts[1]}` : parts[0] === "lib" ? file : parts[0];
}

/** The folder graph of lib/: one arrow per pair of lib folders with at least one import between them. */
export function libFolderGraph(files: ImportGraph): ImportGraph {
  const folders: ImportGraph = new Map();
  for (const [file, targets] of files) {
    if (!file.startsWith("lib" + path.sep)) continue;
    const from = folderOf(file);
    if (!folders.has(from)) folders.set(from, new Set());
    for (const target of targets) {
      const to = folderOf(target);
      if (to !== from && target.startsWith("lib" + path.sep)) folders.get(from)!.add(to);
    }
  }
  return folders;
}

/** Strongly connected components (Tarjan); a component of more than one node is a cycle. */
export function stronglyConnected(graph: ImportGraph): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indices.get(next)!));
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component);
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return components;
}

/** The cycles of a graph: its components of more than one node. */
export function cyclesOf(graph: ImportGraph): string[][] {
  return stronglyConnected(graph).filter((component) => component.length > 1);
}

/**
 * Arrows that run against the layering, and the layers. The folders are put in one order that makes
 * as few arrows as possible point up (Eades-Lin-Smyth greedy heuristic: peel off folders nobody
 * imports and folders that import nobody); `upward` counts the arrows that still do, `layers` is the
 * longest chain of the remaining downward arrows. Both are 0-cycle exact: an acyclic graph has
 * upward 0 and layers = its longest chain.
 */
export function layering(graph: ImportGraph): { arrows: number; upward: number; layers: number } {
  const nodes = new Set<string>([...graph.keys(), ...[...graph.values()].flatMap((targets) => [...targets])]);
  const out = new Map<string, Set<string>>([...nodes].map((n) => [n, new Set([...(graph.get(n) ?? [])].filter((t) => t !== n))]));
  const into = new Map<string, Set<string>>([...nodes].map((n) => [n, new Set<string>()]));
  for (const [from, targets] of out) for (const to of targets) into.get(to)!.add(from);
  const left = new Set(nodes);
  const top: string[] = [];
  const bottom: string[] = [];
  const take = (node: string) => {
    left.delete(node);
    for (const to of out.get(node)!) into.get(to)!.delete(node);
    for (const from of into.get(node)!) out.get(from)!.delete(node);
  };
  while (left.size) {
    let changed = true;
    while (changed) {
      changed = false;
      for (const node of [...left].sort()) {
        const sink = ![...out.get(node)!].some((t) => left.has(t));
        const source = !sink && ![...into.get(node)!].some((f) => left.has(f));
        if (!sink && !source) continue;
        if (sink) bottom.unshift(node);
        else top.push(node);
        take(node);
        changed = true;
      }
    }
    if (!left.size) break;
    const score = (n: string) => [...out.get(n)!].filter((t) => left.has(t)).length - [...into.get(n)!].filter((f) => left.has(f)).length;
    const best = [...left].sort((a, b) => score(b) - score(a) || a.localeCompare(b))[0];
    top.push(best);
    take(best);
  }
  const rank = new Map([...top, ...bottom].map((node, i) => [node, i]));
  let arrows = 0;
  let upward = 0;
  const downward = new Map<string, string[]>();
  for (const [from, targets] of graph) {
    for (const to of targets) {
      if (to === from) continue;
      arrows++;
      if (rank.get(to)! < rank.get(from)!) upward++;
      else downward.set(from, [...(downward.get(from) ?? []), to]);
    }
  }
  const depth = new Map<string, number>();
  const depthOf = (node: string): number => {
    if (!depth.has(node)) depth.set(node, 1 + Math.max(0, ...(downward.get(node) ?? []).map(depthOf)));
    return depth.get(node)!;
  };
  return { arrows, upward, layers: Math.max(0, ...[...nodes].map(depthOf)) };
}
