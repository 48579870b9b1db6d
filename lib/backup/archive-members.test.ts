import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { checkArchiveMembers, digestTree, verifyDigests } from "./archive-members";
import { decryptBackup, encryptBackup, isEncryptedBackup } from "./backup-encryption";

const scratch = () => fs.mkdtempSync(path.join(os.tmpdir(), "fv-archive-"));

function archiveOf(build: (dir: string) => void, extraTarArgs: string[] = []): string {
  const dir = scratch();
  const content = path.join(dir, "content");
  fs.mkdirSync(content);
  build(content);
  const archive = path.join(dir, "a.tar.gz");
  execFileSync("tar", ["-czf", archive, "-C", content, ".", ...extraTarArgs]);
  return archive;
}

describe("archive members are checked before extraction", () => {
  it("accepts plain files and directories", () => {
    expect(() => checkArchiveMembers(archiveOf((d) => { fs.mkdirSync(path.join(d, "blobs")); fs.writeFileSync(path.join(d, "blobs", "x"), "1"); }), "the archive")).not.toThrow();
  });
  it.each([
    ["a symbolic link", (d: string) => fs.symlinkSync("/etc/passwd", path.join(d, "secret.key")), /link, device or special file/],
    ["a hard link", (d: string) => { fs.writeFileSync(path.join(d, "a"), "1"); fs.linkSync(path.join(d, "a"), path.join(d, "b")); }, /link, device or special file/],
    ["a FIFO", (d: string) => execFileSync("mkfifo", [path.join(d, "pipe")]), /link, device or special file/],
  ])("refuses %s", (_name, build, message) => {
    expect(() => checkArchiveMembers(archiveOf(build), "the archive")).toThrow(message);
  });
  it("refuses an absolute member name", () => {
    const dir = scratch();
    const outside = path.join(dir, "outside.txt");
    fs.writeFileSync(outside, "x");
    const archive = path.join(dir, "abs.tar.gz");
    execFileSync("tar", ["-czPf", archive, outside]);
    expect(() => checkArchiveMembers(archive, "the archive")).toThrow(/outside the target/);
    // the database dump's own form (GNU tar strips the slash): accepted only where asked for
    expect(() => checkArchiveMembers(archive, "the dump", { leadingSlash: "strip" })).not.toThrow();
  });
  it("refuses a name that climbs out with .., even where a leading slash is stripped", () => {
    const dir = scratch();
    fs.mkdirSync(path.join(dir, "a"));
    fs.writeFileSync(path.join(dir, "x.txt"), "x");
    const archive = path.join(dir, "climb.tar");
    execFileSync("tar", ["-cPf", archive, "-C", path.join(dir, "a"), "../x.txt"]);
    expect(() => checkArchiveMembers(archive, "the dump", { leadingSlash: "strip" })).toThrow(/outside the target/);
  });
});

describe("member digests", () => {
  it("refuses an altered, missing or extra member", async () => {
    const dir = scratch();
    fs.mkdirSync(path.join(dir, "blobs"));
    fs.writeFileSync(path.join(dir, "blobs", "x"), "one");
    fs.writeFileSync(path.join(dir, "manifest.json"), "{}");
    const digests = await digestTree(dir, "manifest.json");
    expect(Object.keys(digests)).toEqual(["blobs/x"]);
    await expect(verifyDigests(dir, digests, "manifest.json")).resolves.toBeUndefined();
    fs.writeFileSync(path.join(dir, "blobs", "x"), "two");
    await expect(verifyDigests(dir, digests, "manifest.json")).rejects.toThrow(/does not match the SHA-256/);
    const now = await digestTree(dir, "manifest.json");
    await expect(verifyDigests(dir, { ...now, "blobs/y": "0".repeat(64) }, "manifest.json")).rejects.toThrow(/lacks blobs\/y/);
    await expect(verifyDigests(dir, {}, "manifest.json")).rejects.toThrow(/does not list/);
  });
});

describe("passphrase encryption", () => {
  it("round-trips, and a wrong passphrase or a flipped byte is refused", async () => {
    const dir = scratch();
    const plain = Buffer.from("archive bytes ".repeat(1000));
    const sealed = path.join(dir, "b.enc");
    await encryptBackup({ from: Readable.from([plain]), to: sealed, passphrase: "correct horse battery" });
    expect(isEncryptedBackup(sealed)).toBe(true);
    expect(fs.readFileSync(sealed).includes(Buffer.from("archive bytes"))).toBe(false);
    await decryptBackup({ from: sealed, to: path.join(dir, "ok"), passphrase: "correct horse battery" });
    expect(fs.readFileSync(path.join(dir, "ok"))).toEqual(plain);
    await expect(decryptBackup({ from: sealed, to: path.join(dir, "bad"), passphrase: "wrong horse battery" })).rejects.toThrow(/wrong passphrase/);
    expect(fs.existsSync(path.join(dir, "bad"))).toBe(false);
    const bytes = fs.readFileSync(sealed);
    bytes[bytes.length - 100] ^= 1;
    fs.writeFileSync(path.join(dir, "flipped"), bytes);
    await expect(decryptBackup({ from: path.join(dir, "flipped"), to: path.join(dir, "bad2"), passphrase: "correct horse battery" })).rejects.toThrow(/altered/);
  }, 60_000);
});
