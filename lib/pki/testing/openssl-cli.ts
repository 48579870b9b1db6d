import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Test support: run the openssl CLI as an independent checker of what our code produces. */
export type CommandResult = { status: number; stdout: string; stderr: string };

export function runOpenssl(args: string[], options: { cwd?: string; input?: Uint8Array } = {}): CommandResult {
  const result = spawnSync("openssl", args, { cwd: options.cwd, input: options.input, encoding: "utf8" });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** Runs openssl and fails with its output when it exits non-zero. */
export function openssl(args: string[], options: { cwd?: string; input?: Uint8Array } = {}): string {
  const result = runOpenssl(args, options);
  if (result.status !== 0) throw new Error(`openssl ${args.join(" ")} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout + result.stderr;
}

export function makeTempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
}

export function toPem(der: Uint8Array, label = "CERTIFICATE"): string {
  const base64 = Buffer.from(der).toString("base64").replace(/(.{64})/g, "$1\n");
  return `-----BEGIN ${label}-----\n${base64.replace(/\n$/, "")}\n-----END ${label}-----\n`;
}

/** Writes files into dir and returns their absolute paths, keyed like the input. */
export function writeFiles<K extends string>(dir: string, files: Record<K, string | Uint8Array>): Record<K, string> {
  const paths = {} as Record<K, string>;
  for (const [name, content] of Object.entries(files) as [K, string | Uint8Array][]) {
    paths[name] = path.join(dir, name);
    fs.writeFileSync(paths[name], content);
  }
  return paths;
}
