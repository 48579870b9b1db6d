import { describe, expect, it } from "vitest";
import { batchLookups } from "./batch-lookups";

/** A lookup whose statements finish when the test says so, recording the keys of each. */
function controlledLookup(fail?: (keys: string[]) => Error | undefined) {
  const statements: string[][] = [];
  const pending: (() => void)[] = [];
  const lookup = (keys: string[]) => {
    statements.push(keys);
    return new Promise<Map<string, string>>((resolve, reject) => {
      pending.push(() => {
        const error = fail?.(keys);
        if (error) reject(error);
        else resolve(new Map(keys.filter((k) => !k.startsWith("unknown")).map((k) => [k, `value of ${k}`])));
      });
    });
  };
  const finishNext = async () => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    pending.shift()!();
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
  return { statements, lookup, finishNext };
}

/** The rest of this turn of the event loop: what setImmediate runs after. */
const endOfTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("batchLookups", () => {
  it("reads the keys of one turn in one statement, even when each statement is over as soon as it starts (PGlite runs it on this thread)", async () => {
    const statements: string[][] = [];
    const reads = batchLookups<string, string>({ maxKeys: 8, lookup: async (keys) => (statements.push(keys), new Map(keys.map((k) => [k, `value of ${k}`]))) });
    const asked: Promise<string | undefined>[] = [];
    await new Promise<void>((resolve) => {
      for (const key of ["a", "b", "c"]) process.nextTick(() => asked.push(reads.get(key)));
      process.nextTick(resolve);
    });
    expect(await Promise.all(asked)).toEqual(["value of a", "value of b", "value of c"]);
    expect(statements).toEqual([["a", "b", "c"]]);
  });

  it("reads a lone key at the end of its turn of the event loop, with no timer, and answers it only after its statement", async () => {
    const l = controlledLookup();
    const reads = batchLookups({ maxKeys: 8, lookup: l.lookup });
    let answer: string | undefined;
    const done = reads.get("a").then((value) => (answer = value));
    // not inside get: the keys of the rest of this turn may still come
    expect(l.statements).toEqual([]);
    await endOfTurn();
    expect(l.statements).toEqual([["a"]]);
    expect(answer).toBeUndefined();
    await l.finishNext();
    await done;
    expect(answer).toBe("value of a");
  });

  it("reads the keys that arrived during a statement together in the next, each caller getting its own value", async () => {
    const l = controlledLookup();
    const reads = batchLookups({ maxKeys: 3, lookup: l.lookup });
    const answers = [reads.get("a")];
    await endOfTurn();
    answers.push(...["b", "c", "b", "unknown-d", "e"].map((key) => reads.get(key)));
    await l.finishNext();
    await l.finishNext();
    await l.finishNext();
    // a alone; then at most 3 distinct keys (b, c, b, unknown-d); then e
    expect(l.statements).toEqual([["a"], ["b", "c", "unknown-d"], ["e"]]);
    expect(await Promise.all(answers)).toEqual(["value of a", "value of b", "value of c", "value of b", undefined, "value of e"]);
  });

  it("fails only the callers of a failed statement, and reads on after it", async () => {
    const l = controlledLookup((keys) => (keys.includes("x") ? new Error("database down") : undefined));
    const reads = batchLookups({ maxKeys: 8, lookup: l.lookup });
    const first = reads.get("a");
    await endOfTurn();
    const failed = [reads.get("x"), reads.get("y")].map((p) => p.then(() => "answered", (error: Error) => error.message));
    await l.finishNext();
    await l.finishNext();
    expect(await first).toBe("value of a");
    expect(await Promise.all(failed)).toEqual(["database down", "database down"]);
    const later = reads.get("z");
    await l.finishNext();
    expect(await later).toBe("value of z");
  });
});
