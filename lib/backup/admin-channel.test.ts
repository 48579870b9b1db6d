import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseTrustedProxies, PEER_ADDRESS_HEADER } from "@/lib/config/client-address";
import { adminChannelAllows, isAdminToken, readAdminToken, rotateAdminToken } from "./admin-channel";

const request = (peer: string, headers: Record<string, string> = {}) => new Request("http://x/api/admin/backup", { method: "POST", headers: { [PEER_ADDRESS_HEADER]: peer, ...headers } });
const none = { adminAllow: parseTrustedProxies(""), trustedProxies: parseTrustedProxies("") };

describe("who may reach the backup channel", () => {
  it.each([
    ["loopback v4", "127.0.0.1", {}, none, true],
    ["loopback v6", "::1", {}, none, true],
    ["loopback, IPv4-mapped", "::ffff:127.0.0.1", {}, none, true],
    ["a public address", "203.0.113.9", {}, none, false],
    ["a private address not in ADMIN_ALLOW", "10.1.2.3", {}, none, false],
    ["an address in ADMIN_ALLOW", "10.1.2.3", {}, { ...none, adminAllow: parseTrustedProxies("10.1.0.0/16") }, true],
    ["no peer at all", "", {}, none, false],
    // what Next adds itself when a request carries no X-Forwarded-For
    ["loopback, with Next's own X-Forwarded-For", "127.0.0.1", { "x-forwarded-for": "127.0.0.1" }, none, true],
    ["loopback v6, with Next's own X-Forwarded-For", "::ffff:127.0.0.1", { "x-forwarded-for": "::ffff:127.0.0.1" }, none, true],
    // a reverse proxy on this machine: every visitor would look like loopback
    ["loopback relaying a visitor (untrusted proxy)", "127.0.0.1", { "x-forwarded-for": "203.0.113.9" }, none, false],
    ["loopback relaying with Forwarded only", "127.0.0.1", { forwarded: "for=203.0.113.9" }, none, false],
    ["a trusted proxy relaying a visitor", "127.0.0.1", { "x-forwarded-for": "203.0.113.9" }, { ...none, trustedProxies: parseTrustedProxies("127.0.0.1") }, false],
    ["a trusted proxy relaying an allowed admin", "127.0.0.1", { "x-forwarded-for": "10.1.2.3" }, { adminAllow: parseTrustedProxies("10.1.0.0/16"), trustedProxies: parseTrustedProxies("127.0.0.1") }, true],
  ] as const)("%s: %s", (_name, peer, headers, config, allowed) => {
    expect(adminChannelAllows(request(peer, headers), config)).toBe(allowed);
  });
});

describe("the admin token", () => {
  const dataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "fv-admin-token-"));

  it("is generated once into DATA_DIR/admin.token (0600), and rotation refuses the old one", () => {
    const dir = dataDir();
    const first = readAdminToken({ dataDir: dir });
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.statSync(path.join(dir, "admin.token")).mode & 0o777).toBe(0o600);
    expect(readAdminToken({ dataDir: dir })).toBe(first);
    rotateAdminToken({ dataDir: dir });
    expect(isAdminToken(first, { dataDir: dir })).toBe(false);
    expect(isAdminToken(readAdminToken({ dataDir: dir }), { dataDir: dir })).toBe(true);
    expect(fs.readdirSync(dir)).toEqual(["admin.token"]);
  });

  it("ADMIN_TOKEN wins over the file and is not rotated by the CLI", () => {
    const dir = dataDir();
    const config = { dataDir: dir, ADMIN_TOKEN: "t".repeat(40) };
    expect(isAdminToken("t".repeat(40), config)).toBe(true);
    expect(() => rotateAdminToken(config)).toThrow(/ADMIN_TOKEN is set/);
    expect(fs.existsSync(path.join(dir, "admin.token"))).toBe(false);
  });
});
