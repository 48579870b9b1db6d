import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { clientAddress, isLoopbackOrIn, PEER_ADDRESS_HEADER, type TrustedProxies } from "@/lib/config/client-address";
import { secretsMatch } from "@/lib/crypto/secrets-match";

/** Where the generated admin token lives when ADMIN_TOKEN is not set (0600, never in a backup). */
export const ADMIN_TOKEN_FILE = "admin.token";

/**
 * The backup channel's bearer token: ADMIN_TOKEN, or a random one generated into DATA_DIR/admin.token.
 * It is read on every request, so `admin-token:rotate` takes effect without a restart. Unlike a value
 * derived from SECRET_KEY, a backup archive (which holds secret.key) does not carry it.
 */
export function readAdminToken(config: { ADMIN_TOKEN?: string; dataDir: string }): string {
  if (config.ADMIN_TOKEN) return config.ADMIN_TOKEN;
  const file = path.join(config.dataDir, ADMIN_TOKEN_FILE);
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString("hex") + "\n", { mode: 0o600, flag: "wx" });
  } catch (error) {
    // two first requests at once: the other one wrote it
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return fs.readFileSync(file, "utf8").trim();
}

/** A new random token in DATA_DIR/admin.token (written aside then renamed: a reader never sees half a token). */
export function rotateAdminToken(config: { ADMIN_TOKEN?: string; dataDir: string }): void {
  if (config.ADMIN_TOKEN) throw new Error("ADMIN_TOKEN is set in the environment: change it there (the file is not used)");
  const file = path.join(config.dataDir, ADMIN_TOKEN_FILE);
  const aside = `${file}.${crypto.randomUUID()}.tmp`;
  fs.writeFileSync(aside, crypto.randomBytes(32).toString("hex") + "\n", { mode: 0o600, flag: "wx" });
  fs.renameSync(aside, file);
}

/** Constant-time comparison with the current token. */
export function isAdminToken(presented: string, config: { ADMIN_TOKEN?: string; dataDir: string }): boolean {
  return secretsMatch(presented, readAdminToken(config));
}

/**
 * The backup channel answers only loopback and ADMIN_ALLOW. The address judged is the TCP peer; a
 * request relayed by a proxy (X-Forwarded-For) is judged by its client, and only through a proxy
 * named in TRUSTED_PROXIES: a proxy on this machine would otherwise make every visitor loopback.
 */
export function adminChannelAllows(request: Request, config: { adminAllow: TrustedProxies; trustedProxies: TrustedProxies }): boolean {
  const peer = request.headers.get(PEER_ADDRESS_HEADER) ?? "";
  // Next itself sets X-Forwarded-For to the socket's peer when a request carries none
  const hops = (request.headers.get("x-forwarded-for") ?? "").split(",").map((hop) => hop.trim()).filter(Boolean);
  const self = clientAddress({ headers: new Headers({ [PEER_ADDRESS_HEADER]: peer }) }, []);
  const addedByNext = hops.length === 1 && clientAddress({ headers: new Headers({ [PEER_ADDRESS_HEADER]: hops[0] }) }, []) === self;
  const relayed = (hops.length > 0 && !addedByNext) || request.headers.has("forwarded") || request.headers.has("x-real-ip");
  if (!relayed) return isLoopbackOrIn(peer, config.adminAllow);
  const client = clientAddress(request, config.trustedProxies);
  // no trusted hop was walked: whoever relayed it is not a known proxy, and its client is unknown
  if (client === self) return false;
  return isLoopbackOrIn(client, config.adminAllow);
}
