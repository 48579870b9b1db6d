import crypto from "node:crypto";
import fs from "node:fs";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { AppError } from "@/lib/errors";

/** An encrypted backup starts with this, then the scrypt salt and the GCM nonce; the tag is the last 16 bytes. */
const MAGIC = Buffer.from("FVBACKUP-AES256GCM-1\n");
const SALT_BYTES = 16;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
// scrypt at N=2^17 costs ~0.3 s and 128 MB once per backup or restore: a stolen archive costs as much per guess
const SCRYPT = { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 };

function keyOf(passphrase: string, salt: Buffer): Buffer {
  if (passphrase.length < 12) throw new AppError("VALIDATION", "the backup passphrase must have at least 12 characters");
  return crypto.scryptSync(passphrase.normalize("NFC"), salt, 32, SCRYPT);
}

export function isEncryptedBackup(file: string): boolean {
  const head = Buffer.alloc(MAGIC.length);
  const fd = fs.openSync(file, "r");
  try {
    return fs.readSync(fd, head, 0, MAGIC.length, 0) === MAGIC.length && head.equals(MAGIC);
  } finally {
    fs.closeSync(fd);
  }
}

/** AES-256-GCM under a key from the passphrase (scrypt); the header is authenticated too. */
export async function encryptBackup(input: { from: Readable; to: string; passphrase: string }): Promise<void> {
  const salt = crypto.randomBytes(SALT_BYTES);
  const nonce = crypto.randomBytes(NONCE_BYTES);
  const header = Buffer.concat([MAGIC, salt, nonce]);
  const cipher = crypto.createCipheriv("aes-256-gcm", keyOf(input.passphrase, salt), nonce).setAAD(header);
  const out = fs.createWriteStream(input.to, { mode: 0o600, flags: "wx" });
  out.write(header);
  await pipeline(input.from, cipher, out, { end: false });
  await new Promise<void>((resolve, reject) => out.end(cipher.getAuthTag(), (error?: Error | null) => (error ? reject(error) : resolve())));
}

/** Decrypts into `to`; a wrong passphrase or an altered byte fails on the tag, and `to` is removed. */
export async function decryptBackup(input: { from: string; to: string; passphrase: string }): Promise<void> {
  const size = fs.statSync(input.from).size;
  const headerBytes = MAGIC.length + SALT_BYTES + NONCE_BYTES;
  if (size < headerBytes + TAG_BYTES) throw new AppError("VALIDATION", "the encrypted backup is truncated");
  const fd = fs.openSync(input.from, "r");
  const header = Buffer.alloc(headerBytes);
  const tag = Buffer.alloc(TAG_BYTES);
  fs.readSync(fd, header, 0, headerBytes, 0);
  fs.readSync(fd, tag, 0, TAG_BYTES, size - TAG_BYTES);
  fs.closeSync(fd);
  const salt = header.subarray(MAGIC.length, MAGIC.length + SALT_BYTES);
  const nonce = header.subarray(MAGIC.length + SALT_BYTES);
  const decipher = crypto.createDecipheriv("aes-256-gcm", keyOf(input.passphrase, salt), nonce).setAAD(header).setAuthTag(tag);
  try {
    await pipeline(fs.createReadStream(input.from, { start: headerBytes, end: size - TAG_BYTES - 1 }), decipher, fs.createWriteStream(input.to, { mode: 0o600, flags: "wx" }));
  } catch {
    fs.rmSync(input.to, { force: true });
    throw new AppError("VALIDATION", "the backup cannot be decrypted: wrong passphrase, or the archive was altered");
  }
}
