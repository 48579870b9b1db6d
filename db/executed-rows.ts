/**
 * The rows of `db.execute(sql…)`: postgres.js answers an array of rows, PGlite an object with
 * `rows`. The caller names the row type: raw SQL carries none.
 */
export function executedRows<Row>(result: unknown): Row[] {
  return (Array.isArray(result) ? result : (result as { rows: Row[] }).rows) as Row[];
}
