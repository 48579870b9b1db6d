/** Rows that concurrent callers write together; `add` settles once the statement holding its row has. */
export type GroupCommit<Row> = { add: (row: Row) => Promise<void> };

type Waiting<Row> = { row: Row; resolve: () => void; reject: (error: unknown) => void };

/**
 * Group commit: one statement writes the rows of every caller that arrived in the same turn of the
 * event loop, or while the previous statement ran (at most `maxRows` per statement). The first
 * statement starts at the end of the turn (setImmediate), not at the first `add`: PGlite runs a
 * statement synchronously on this thread, so no request can arrive while it runs, and starting at
 * once wrote every row of a busy server alone (1,820 statements for 1,820 signTimeStamps at c=8).
 * The requests whose sockets were read in one turn are gathered instead. There is no timer: a
 * caller alone waits for no more than the rest of its turn. Each `add` resolves only after the
 * statement with its row committed. When a statement of several rows fails, its rows are written
 * again one by one, so each caller gets its own row's verdict: a failing row (a constraint) fails
 * only its caller, and a failing database fails them all. Nothing is dropped: every `add` resolves
 * or rejects.
 */
export function groupCommit<Row>({ maxRows, write }: { maxRows: number; write: (rows: Row[]) => Promise<unknown> }): GroupCommit<Row> {
  if (!Number.isInteger(maxRows) || maxRows < 1) throw new RangeError("maxRows must be a positive integer");
  const queue: Waiting<Row>[] = [];
  let writing = false;

  const writeAlone = async (waiting: Waiting<Row>) => {
    try {
      await write([waiting.row]);
      waiting.resolve();
    } catch (error) {
      waiting.reject(error);
    }
  };

  const drain = async () => {
    writing = true;
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, maxRows);
        try {
          await write(batch.map((waiting) => waiting.row));
          for (const waiting of batch) waiting.resolve();
        } catch (error) {
          // a failed statement wrote none of its rows (one statement is atomic): each row on its own
          if (batch.length === 1) batch[0].reject(error);
          else for (const waiting of batch) await writeAlone(waiting);
        }
      }
    } finally {
      writing = false;
    }
  };

  return {
    add: (row) =>
      new Promise<void>((resolve, reject) => {
        queue.push({ row, resolve, reject });
        if (writing) return;
        // the statement starts once this turn's callers have come (the doc comment above says why)
        writing = true;
        setImmediate(() => void drain());
      }),
  };
}
