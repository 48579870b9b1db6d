import path from "node:path";

/**
 * The files tests read, kept in the repository so that any clone runs its own suite. The layout
 * mirrors the collection they were copied from; test/fixtures/README.md gives each file's source,
 * commit and licence.
 */
export const FIXTURES_DIR = path.join(__dirname, "fixtures");

export function fixturePath(...parts: string[]): string {
  return path.join(FIXTURES_DIR, ...parts);
}
