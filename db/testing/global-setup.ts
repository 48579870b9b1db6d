import { preparePgliteTemplate } from "./pglite-template";

/** Unit tests: one migrated embedded cluster for every test file that opens a new database. */
export default async function setup() {
  return preparePgliteTemplate();
}
