// Test helper process for lock-data-dir.test.ts: waits for "go" on stdin, tries to lock the
// directory, reports the outcome and holds the lock until stdin closes.
import readline from "node:readline";
import { DataDirInUseError, lockDataDir } from "./lock-data-dir";

const dataDir = process.argv[2];
const input = readline.createInterface({ input: process.stdin });
console.log("ready");
input.once("line", () => {
  try {
    lockDataDir(dataDir);
    console.log("owner");
  } catch (error) {
    console.log(error instanceof DataDirInUseError ? "busy" : `error ${(error as Error).message}`);
  }
});
input.once("close", () => process.exit(0));
