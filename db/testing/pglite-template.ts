import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../client";

/**
 * Test runs open dozens of new embedded databases (a server per API test file, a database per unit
 * test file), and each one pays initdb plus every migration (~5 s on this machine). Made once per
 * run, this migrated cluster is copied instead (openDatabase reads PGLITE_TEMPLATE_DIR); the copy
 * still runs migrations, which find nothing to do. Returns a function that removes it.
 */
export async function preparePgliteTemplate(): Promise<() => void> {
  if (process.env.PGLITE_TEMPLATE_DIR) return () => {};
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "fv-pglite-template-"));
  const dataDir = path.join(root, "data");
  fs.mkdirSync(dataDir);
  const database = await openDatabase({ dataDir });
  await database.close();
  process.env.PGLITE_TEMPLATE_DIR = path.join(dataDir, "pglite");
  return () => {
    delete process.env.PGLITE_TEMPLATE_DIR;
    fs.rmSync(root, { recursive: true, force: true });
  };
}
