import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDebianPackages, findMissingPackages, readPackageList } from "./check-debian-packages.mjs";

const root = path.resolve(__dirname, "..");
let fakeBin: string;
const installedForFake = ["chromium", "qpdf", "openssl"];

// a dpkg-query that knows only `installedForFake`, and an apt-get that records its arguments
beforeAll(() => {
  fakeBin = fs.mkdtempSync(path.join(os.tmpdir(), "fake-dpkg-"));
  fs.chmodSync(fakeBin, 0o755);
  fs.writeFileSync(
    path.join(fakeBin, "dpkg-query"),
    `#!/bin/sh\nshift 2\nfor p in "$@"; do case " ${installedForFake.join(" ")} " in *" $p "*) echo "$p install ok installed";; *) echo "dpkg-query: no packages found matching $p" >&2;; esac; done\nexit 1\n`,
    { mode: 0o755 },
  );
  fs.writeFileSync(path.join(fakeBin, "apt-get"), `#!/bin/sh\necho "$@" >> "${fakeBin}/apt-get.log"\n`, { mode: 0o755 });
});
afterAll(() => fs.rmSync(fakeBin, { recursive: true, force: true }));

const fakeEnv = () => ({ ...process.env, PATH: `${fakeBin}:${process.env.PATH}` });
const quietLog = () => {
  const lines: string[] = [];
  const push = (...a: unknown[]) => lines.push(a.join(" "));
  return { lines, log: { log: push, warn: push, error: push } };
};

describe("Debian prerequisites", () => {
  it("reads the one list that .ci/run reads too", () => {
    const list = readPackageList();
    expect(list).toContain("chromium");
    expect(list).toContain("postgresql");
    expect(list.every((name: string) => /^[a-z0-9][a-z0-9+.-]+$/.test(name))).toBe(true);
    expect(fs.readFileSync(path.join(root, ".ci/run"), "utf8")).toContain("scripts/debian-packages.txt");
  });

  it("names exactly the packages dpkg does not report as installed", () => {
    const missing = findMissingPackages(["chromium", "postgresql", "qpdf", "faketime"], fakeEnv());
    expect(missing).toEqual(["postgresql", "faketime"]);
  });

  it("without dpkg (not Debian) it cannot tell, and says so instead of failing", () => {
    expect(findMissingPackages(["chromium"], { ...process.env, PATH: fakeBin + "/nowhere" })).toBeNull();
  });

  it("as a normal user prints one apt-get line with the missing packages and answers false", () => {
    const { lines, log } = quietLog();
    expect(ensureDebianPackages({ env: fakeEnv(), isRoot: false, log })).toBe(false);
    const expected = readPackageList().filter((p: string) => !installedForFake.includes(p));
    expect(lines.join("\n")).toContain(`sudo apt-get install -y --no-install-recommends ${expected.join(" ")}\n`);
    expect(fs.existsSync(path.join(fakeBin, "apt-get.log"))).toBe(false);
  });

  it("as root installs the missing packages (apt-get update, then install of exactly those)", () => {
    const { log } = quietLog();
    expect(ensureDebianPackages({ env: fakeEnv(), isRoot: true, log })).toBe(true);
    const calls = fs.readFileSync(path.join(fakeBin, "apt-get.log"), "utf8").trim().split("\n");
    const expected = readPackageList().filter((p: string) => !installedForFake.includes(p));
    expect(calls).toEqual(["update -q", `install -y -q --no-install-recommends ${expected.join(" ")}`]);
    fs.rmSync(path.join(fakeBin, "apt-get.log"));
  });

  it("npm test on a machine missing packages stops within seconds, before building", () => {
    // run as an unprivileged user when we are root, so the script takes the "print and stop" path
    const asUser = process.getuid?.() === 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : [];
    const command = [...asUser, process.execPath, path.join(root, "scripts/test.mjs")];
    const started = Date.now();
    const result = spawnSync(command[0], command.slice(1), { cwd: root, env: fakeEnv(), encoding: "utf8", timeout: 60_000 });
    const seconds = (Date.now() - started) / 1000;
    console.log(`npm test stopped after ${seconds.toFixed(2)} s on a machine missing packages`);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("apt-get install -y --no-install-recommends postgresql");
    expect(result.stdout + result.stderr).not.toContain("=== type check");
    expect(seconds).toBeLessThan(10);
  });
});
