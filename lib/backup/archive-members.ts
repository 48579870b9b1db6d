import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { AppError } from "@/lib/errors";

/**
 * Lists a tar archive before anything is extracted and refuses what a FirmaViva backup never holds:
 * symbolic or hard links, device files, FIFOs and sockets, absolute names and names that climb out
 * with "..". A link to /etc (or to another DATA_DIR) extracted first would have the next member
 * written through it.
 */
export function checkArchiveMembers(archive: string, what: string, options: { leadingSlash?: "refuse" | "strip" } = {}): void {
  const head = Buffer.alloc(2);
  const fd = fs.openSync(archive, "r");
  fs.readSync(fd, head, 0, 2, 0);
  fs.closeSync(fd);
  const gzip = head.equals(Buffer.from([0x1f, 0x8b]));
  const listing = list([gzip ? "-tvzf" : "-tvf", archive], what);
  for (const line of listing) {
    if (line[0] !== "-" && line[0] !== "d") throw new AppError("VALIDATION", `${what}: refused, it holds a link, device or special file (${line.slice(0, 200)})`);
  }
  for (const name of list([gzip ? "-tzf" : "-tf", archive], what)) {
    // PGlite's own dump names its files from "/" (GNU tar strips the slash on extraction): allowed there only
    if ((name.startsWith("/") && options.leadingSlash !== "strip") || name.split("/").includes("..")) throw new AppError("VALIDATION", `${what}: refused, member ${name.slice(0, 200)} lies outside the target directory`);
  }
}

function list(args: string[], what: string): string[] {
  const result = spawnSync("tar", args, { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (result.error) throw new AppError("INTERNAL", `tar is not available: ${result.error.message}`);
  if (result.status !== 0) throw new AppError("VALIDATION", `${what} cannot be read (damaged, or not a FirmaViva backup): ${result.stderr.trim().slice(0, 300)}`);
  return result.stdout.split("\n").filter(Boolean);
}

/** SHA-256 of every regular file under `root` (the manifest excluded), by POSIX relative path. */
export async function digestTree(root: string, exclude: string): Promise<Record<string, string>> {
  const digests: Record<string, string> = {};
  const walk = async (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const name = path.relative(root, full).split(path.sep).join("/");
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) {
        if (name !== exclude) digests[name] = await sha256File(full);
      } else throw new AppError("VALIDATION", `${name}: neither a file nor a directory`);
    }
  };
  await walk(root);
  return digests;
}

function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = crypto.createHash("sha256");
    fs.createReadStream(file)
      .on("data", (chunk) => hash.update(chunk))
      .on("end", () => resolve(hash.digest("hex")))
      .on("error", reject);
  });
}

/** The extracted files must be exactly the manifest's, each with its SHA-256. */
export async function verifyDigests(root: string, expected: Record<string, string>, exclude: string): Promise<void> {
  const actual = await digestTree(root, exclude);
  const names = new Set([...Object.keys(actual), ...Object.keys(expected)]);
  for (const name of names) {
    if (!(name in expected)) throw new AppError("VALIDATION", `the archive holds ${name.slice(0, 200)}, which its manifest does not list`);
    if (!(name in actual)) throw new AppError("VALIDATION", `the archive lacks ${name.slice(0, 200)}, which its manifest lists`);
    if (actual[name] !== expected[name]) throw new AppError("VALIDATION", `${name.slice(0, 200)} does not match the SHA-256 in the manifest (damaged or altered)`);
  }
}
