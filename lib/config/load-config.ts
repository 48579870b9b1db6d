import fs from "node:fs";
import { isMainThread } from "node:worker_threads";
import path from "node:path";
import crypto from "node:crypto";
import { ZEnv, describeEnvErrors, type Env } from "./env-schema";
import { parseTrustedProxies, type TrustedProxies } from "@/lib/config/client-address";

export type AppConfig = Env & {
  dataDir: string;
  publicUrl: string;
  secretKey: Buffer;
  maxUploadBytes: number;
  databaseKind: "pglite" | "postgres";
  /** Extra trust anchors for the public verifier (TRUST_ANCHORS_FILE), besides our own CA. */
  trustAnchorsDer: Uint8Array[];
  /** TRUSTED_PROXIES parsed: the hops whose X-Forwarded-For entries are believed. */
  trustedProxies: TrustedProxies;
  /** ADMIN_ALLOW parsed: addresses besides loopback that may use the backup channel. */
  adminAllow: TrustedProxies;
};

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/**
 * Reads and validates the environment once. The secret key is generated and persisted in DATA_DIR
 * on first start so that encrypted data survives restarts without any manual step.
 */
export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = ZEnv.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(`Invalid configuration:\n${describeEnvErrors(parsed.error)}`);
  }
  const env = parsed.data;
  if (!env.S3_BUCKET && (env.S3_ENDPOINT || env.S3_ACCESS_KEY_ID || env.S3_PREFIX)) {
    throw new ConfigError("Invalid configuration:\n  S3_BUCKET: must be set when S3_ENDPOINT, S3_ACCESS_KEY_ID or S3_PREFIX is (the S3 blob store needs a bucket)");
  }
  if (!env.S3_ACCESS_KEY_ID !== !env.S3_SECRET_ACCESS_KEY) {
    throw new ConfigError("Invalid configuration:\n  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither (neither uses the AWS default credentials)");
  }
  const dataDir = path.resolve(env.DATA_DIR);
  ensureDataDir(dataDir);
  const secretKey = env.SECRET_KEY
    ? crypto.createHash("sha256").update(env.SECRET_KEY).digest()
    : readOrCreateSecretKey(dataDir);
  return {
    ...env,
    dataDir,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ""),
    secretKey,
    maxUploadBytes: Math.floor(env.MAX_UPLOAD_MB * 1024 * 1024),
    databaseKind: env.DATABASE_URL ? "postgres" : "pglite",
    trustAnchorsDer: env.TRUST_ANCHORS_FILE ? readTrustAnchors(env.TRUST_ANCHORS_FILE) : [],
    trustedProxies: parseTrustedProxies(env.TRUSTED_PROXIES),
    adminAllow: parseTrustedProxies(env.ADMIN_ALLOW),
  };
}

/** A PEM bundle of CA certificates; a file that holds none is a mistake worth stopping for. */
function readTrustAnchors(file: string): Uint8Array[] {
  let pem: string;
  try {
    pem = fs.readFileSync(file, "latin1");
  } catch {
    throw new ConfigError(`TRUST_ANCHORS_FILE: ${file} cannot be read`);
  }
  const anchors = [...pem.matchAll(/-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----/g)].map((match) => new Uint8Array(Buffer.from(match[1], "base64")));
  if (anchors.length === 0) throw new ConfigError(`TRUST_ANCHORS_FILE: ${file} holds no PEM certificate`);
  return anchors;
}

function ensureDataDir(dataDir: string) {
  const parent = path.dirname(dataDir);
  if (!fs.existsSync(parent)) {
    throw new ConfigError(
      `DATA_DIR: the parent directory ${parent} does not exist; create it or point DATA_DIR somewhere else`,
    );
  }
  // Signing links, password hashes and keys live in DATA_DIR (the database WAL included): other local
  // users must not read it, whatever umask the service was started with. Every file this process
  // creates from here on is 0600 (directories 0700), and what an older version left is tightened.
  if (isMainThread) process.umask(0o077);
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.accessSync(dataDir, fs.constants.W_OK);
    restrictTree(dataDir);
  } catch {
    throw new ConfigError(`DATA_DIR: ${dataDir} cannot be created or is not writable`);
  }
}

/**
 * chmod go-rwx on a directory tree (owner bits kept); links are left alone. Run again after the
 * embedded database first unpacks its files, which it writes 0666 whatever the umask.
 */
export function restrictTree(dir: string): void {
  fs.chmodSync(dir, fs.statSync(dir).mode & 0o700);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) restrictTree(full);
    else if (entry.isFile()) fs.chmodSync(full, fs.statSync(full).mode & 0o700);
  }
}

function readOrCreateSecretKey(dataDir: string): Buffer {
  const file = path.join(dataDir, "secret.key");
  if (fs.existsSync(file)) {
    const hex = fs.readFileSync(file, "utf8").trim();
    if (!/^[0-9a-f]{64}$/.test(hex)) throw new ConfigError(`SECRET_KEY: ${file} is damaged; restore it from a backup`);
    return Buffer.from(hex, "hex");
  }
  const key = crypto.randomBytes(32);
  fs.writeFileSync(file, key.toString("hex") + "\n", { mode: 0o600, flag: "wx" });
  return key;
}
