import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./load-config";

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "fv-config-"));

describe("loadConfig", () => {
  it("applies the documented defaults", () => {
    const dir = tempDir();
    const config = loadConfig({ DATA_DIR: path.join(dir, "data") });
    expect(config).toMatchObject({ PORT: 3000, APP_ENV: "quality", MAX_UPLOAD_MB: 50, ORG_DOMAIN: "demo.local", ADMIN_EMAIL: "admin@demo.local", WHATSAPP_TEMPLATE_LANGUAGE: "es", databaseKind: "pglite" });
    expect(config.maxUploadBytes).toBe(50 * 1024 * 1024);
    expect(config.publicUrl).toBe("http://localhost:3000");
  });

  it("generates the secret key once and reuses it", () => {
    const dataDir = path.join(tempDir(), "data");
    const first = loadConfig({ DATA_DIR: dataDir });
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(first.secretKey.equals(second.secretKey)).toBe(true);
    expect(fs.statSync(path.join(dataDir, "secret.key")).mode & 0o777).toBe(0o600);
  });

  it.each([
    [{ PORT: "70000" }, /PORT/],
    [{ APP_ENV: "prod" }, /APP_ENV/],
    [{ PUBLIC_URL: "ftp://x" }, /PUBLIC_URL/],
    [{ ORG_DOMAIN: "not a domain" }, /ORG_DOMAIN/],
    [{ ADMIN_EMAIL: "nope" }, /ADMIN_EMAIL/],
    [{ ADMIN_PASSWORD: "short" }, /ADMIN_PASSWORD/],
    [{ SMTP_URL: "http://mail" }, /SMTP_URL/],
    [{ WHATSAPP_TEMPLATE_NAME: "Firma Solicitud" }, /WHATSAPP_TEMPLATE_NAME/],
    [{ WHATSAPP_TEMPLATE_LANGUAGE: "español" }, /WHATSAPP_TEMPLATE_LANGUAGE/],
    [{ TRUSTED_PROXIES: "10.0.0.0/8, proxy.local" }, /TRUSTED_PROXIES: "proxy.local" is not an IP address or CIDR range/],
    [{ ADMIN_PASSWORD: "Same-Secret-12345", ADMIN_API_SECRET: "Same-Secret-12345" }, /ADMIN_API_SECRET: must differ from ADMIN_PASSWORD/],
    [{ PKCS11_MODULE: "libsofthsm2.so", PKCS11_TOKEN_LABEL: "t", PKCS11_PIN: "1234" }, /PKCS11_MODULE: must be the absolute path/],
    [{ PKCS11_MODULE: "/usr/lib/softhsm/libsofthsm2.so" }, /PKCS11_TOKEN_LABEL: must be set together[\s\S]*PKCS11_PIN: must be set together/],
    [{ PKCS11_PIN: "1234" }, /PKCS11_MODULE: must be set together/],
    [{ PKCS11_MODULE: "/x.so", PKCS11_TOKEN_LABEL: "a".repeat(33), PKCS11_PIN: "1234" }, /PKCS11_TOKEN_LABEL: must be at most 32/],
  ])("names the variable of a bad value %o", (env, expected) => {
    expect(() => loadConfig({ DATA_DIR: path.join(tempDir(), "data"), ...env })).toThrow(expected);
  });

  it("accepts the three PKCS#11 settings together (the token itself is opened at start)", () => {
    const config = loadConfig({ DATA_DIR: path.join(tempDir(), "data"), PKCS11_MODULE: "/usr/lib/softhsm/libsofthsm2.so", PKCS11_TOKEN_LABEL: "firmaviva", PKCS11_PIN: "1234-5678" });
    expect(config.PKCS11_TOKEN_LABEL).toBe("firmaviva");
  });

  it("trusts no proxy by default, and the listed ones when set", () => {
    expect(loadConfig({ DATA_DIR: path.join(tempDir(), "data") }).trustedProxies).toEqual([]);
    expect(loadConfig({ DATA_DIR: path.join(tempDir(), "data"), TRUSTED_PROXIES: "10.0.0.0/8 ::1" }).trustedProxies).toHaveLength(2);
  });

  it("says so when the parent of DATA_DIR is missing", () => {
    expect(() => loadConfig({ DATA_DIR: "/no/such/parent/data" })).toThrow(ConfigError);
  });
});
