import { describe, expect, it } from "vitest";
import { groupCommit } from "./group-commit";

/** A write whose statements finish when the test says so, recording the rows of each. */
function controlledWrite(fail?: (rows: number[]) => Error | undefined) {
  const statements: number[][] = [];
  const pending: (() => void)[] = [];
  const write = (rows: number[]) => {
    statements.push(rows);
    return new Promise<void>((resolve, reject) => {
      pending.push(() => {
        const error = fail?.(rows);
        if (error) reject(error);
        else resolve();
      });
    });
  };
  const finishNext = async () => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    pending.shift()!();
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
  return { statements, pending, write, finishNext };
}

const settled = (promise: Promise<void>) => {
  const state = { done: false, error: undefined as unknown };
  promise.then(() => (state.done = true), (error: unknown) => ((state.done = true), (state.error = error)));
  return state;
};

/** The rest of this turn of the event loop: what setImmediate runs after. */
const endOfTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("groupCommit", () => {
  it("writes a lone row at the end of its turn of the event loop, with no timer, and resolves only after its statement", async () => {
    const w = controlledWrite();
    const commit = groupCommit({ maxRows: 8, write: w.write });
    const first = settled(commit.add(1));
    // not inside add: the rows of the rest of this turn may still come
    expect(w.statements).toEqual([]);
    await endOfTurn();
    expect(w.statements).toEqual([[1]]);
    expect(first.done).toBe(false);
    await w.finishNext();
    expect(first).toEqual({ done: true, error: undefined });
  });

  it("rows of one turn share a statement, and rows that arrive while it runs go together in the next, at most maxRows per statement", async () => {
    const w = controlledWrite();
    const commit = groupCommit({ maxRows: 3, write: w.write });
    const results = [1, 2].map((row) => settled(commit.add(row)));
    await endOfTurn();
    expect(w.statements).toEqual([[1, 2]]);
    results.push(...[3, 4, 5, 6].map((row) => settled(commit.add(row))));
    await w.finishNext();
    expect(w.statements).toEqual([[1, 2], [3, 4, 5]]);
    expect(results.map((r) => r.done)).toEqual([true, true, false, false, false, false]);
    await w.finishNext();
    expect(w.statements).toEqual([[1, 2], [3, 4, 5], [6]]);
    expect(results.map((r) => r.done)).toEqual([true, true, true, true, true, false]);
    await w.finishNext();
    expect(results.every((r) => r.done && r.error === undefined)).toBe(true);
    // idle again: the next row starts its own statement at the end of its turn
    const later = settled(commit.add(7));
    await endOfTurn();
    expect(w.statements.at(-1)).toEqual([7]);
    await w.finishNext();
    expect(later.done).toBe(true);
  });

  it("gathers the rows of a turn even when each statement is over as soon as it starts (PGlite runs it on this thread)", async () => {
    const statements: number[][] = [];
    const commit = groupCommit<number>({ maxRows: 8, write: async (rows) => void statements.push(rows) });
    // requests whose sockets were read in the same turn reach add one after another, each in its own callback
    const added: Promise<void>[] = [];
    await new Promise<void>((resolve) => {
      for (const row of [1, 2, 3]) process.nextTick(() => added.push(commit.add(row)));
      process.nextTick(resolve);
    });
    await Promise.all(added);
    expect(statements).toEqual([[1, 2, 3]]);
  });

  it("a failing database fails every row of the batch, each with the error; none is dropped", async () => {
    const closed = new Error("database closed");
    const w = controlledWrite(() => closed);
    const commit = groupCommit({ maxRows: 8, write: w.write });
    const results = [settled(commit.add(1))];
    await endOfTurn();
    results.push(...[2, 3, 4].map((row) => settled(commit.add(row))));
    while (w.pending.length > 0) await w.finishNext();
    expect(results.every((r) => r.done && r.error === closed)).toBe(true);
    // [1] alone, then [2, 3, 4] together, then each of those again on its own
    expect(w.statements).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });

  it("a row that breaks a constraint fails only its own caller: the batch's other rows are written on their own", async () => {
    const w = controlledWrite((rows) => (rows.includes(3) ? new Error("unique violation") : undefined));
    const commit = groupCommit({ maxRows: 8, write: w.write });
    const results = [1, 2, 3, 4].map((row) => settled(commit.add(row)));
    await endOfTurn();
    while (w.pending.length > 0) await w.finishNext();
    expect(results.map((r) => (r.error as Error | undefined)?.message)).toEqual([undefined, undefined, "unique violation", undefined]);
    expect(results.every((r) => r.done)).toBe(true);
  });

  it("a write that throws synchronously is a failed statement too", async () => {
    const commit = groupCommit<number>({
      maxRows: 8,
      write: () => {
        throw new Error("bad statement");
      },
    });
    await expect(Promise.all([commit.add(1), commit.add(2)])).rejects.toThrow("bad statement");
    await expect(commit.add(3)).rejects.toThrow("bad statement");
  });

  it("refuses a batch size that is not a positive integer", () => {
    for (const maxRows of [0, -1, 1.5, Number.NaN]) expect(() => groupCommit({ maxRows, write: async () => {} })).toThrow(RangeError);
  });
});
