// The Debian prerequisites of the test suite (scripts/debian-packages.txt): which are missing, and
// how to get them. Used by `npm test` before it builds anything.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const listFile = path.join(path.dirname(new URL(import.meta.url).pathname), "debian-packages.txt");

/** The package names in the list file (comments and blank lines skipped). */
export function readPackageList(file = listFile) {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .map((line) => line.replace(/#.*/, "").trim())
    .filter(Boolean);
}

/**
 * The packages dpkg does not report as installed. One dpkg-query call for the whole list; a package
 * dpkg has never heard of is simply absent from its answer. Null when there is no dpkg at all (not Debian).
 */
export function findMissingPackages(packages, env = process.env) {
  const result = spawnSync("dpkg-query", ["-W", "-f=${Package} ${Status}\\n", ...packages], { encoding: "utf8", env });
  if (result.error) return null;
  const installed = new Set(
    result.stdout
      .split("\n")
      .filter((line) => line.endsWith(" install ok installed"))
      .map((line) => line.split(" ")[0].replace(/:.*/, "")),
  );
  return packages.filter((name) => !installed.has(name));
}

export function installCommand(missing) {
  return `apt-get install -y --no-install-recommends ${missing.join(" ")}`;
}

/**
 * Makes sure every package is there: as root it installs the missing ones (as .ci/run does); otherwise
 * it explains and answers false, so the caller stops before building.
 */
export function ensureDebianPackages({ env = process.env, isRoot = process.getuid?.() === 0, log = console } = {}) {
  const packages = readPackageList();
  const missing = findMissingPackages(packages, env);
  if (missing === null) {
    log.warn("!! dpkg-query not found: this is not Debian, so the test prerequisites cannot be checked. They are listed in scripts/debian-packages.txt.");
    return true;
  }
  if (missing.length === 0) return true;
  if (!isRoot) {
    log.error(`Missing Debian packages the tests need (${missing.length}). Install them, then run npm test again:\n\n  sudo ${installCommand(missing)}\n`);
    return false;
  }
  log.log(`Installing the missing Debian packages: ${missing.join(" ")}`);
  const aptEnv = { ...env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update", "-q"], ["install", "-y", "-q", "--no-install-recommends", ...missing]]) {
    const result = spawnSync("apt-get", args, { stdio: "inherit", env: aptEnv });
    if (result.status !== 0) {
      log.error(`apt-get ${args[0]} failed; install by hand:\n\n  ${installCommand(missing)}\n`);
      return false;
    }
  }
  return true;
}
