// The heaviest functions of a .cpuprofile by self time and by inclusive time (ms).
import fs from "node:fs";

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };

export function summarizeCpuProfile(file: string, selfRows: number, inclusiveRows: number): string[] {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const name = (n: Node) => `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber}`;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id)!;
    self.set(name(node), (self.get(name(node)) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const key = name(byId.get(cur)!);
      if (!seen.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + us);
      seen.add(key);
    }
  });
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, us]) => `${(us / 1000).toFixed(0).padStart(8)}  ${k}`);
  return ["self ms:", ...top(self, selfRows), "inclusive ms:", ...top(inclusive, inclusiveRows)];
}
