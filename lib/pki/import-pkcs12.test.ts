import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPkiError } from "@/lib/pki/errors";
import { importPkcs12 } from "@/lib/pki/import-pkcs12";
import { importPrivateKey } from "@/lib/pki/import-private-key";
import { makeTempDir, openssl, toPem } from "@/lib/pki/testing/openssl-cli";

const password = "s3cret-Ñ";

/** CA + leaf made by openssl, so the PKCS#12 files come from an independent implementation. */
function makeChain(dir: string, name: string, keyArgs: string[]) {
  const file = (suffix: string) => path.join(dir, `${name}-${suffix}`);
  openssl(["req", "-x509", "-newkey", ...keyArgs, "-nodes", "-keyout", file("ca.key"), "-out", file("ca.pem"), "-subj", `/CN=${name} test CA`, "-days", "2"]);
  openssl(["req", "-newkey", ...keyArgs, "-nodes", "-keyout", file("leaf.key"), "-out", file("leaf.csr"), "-subj", `/CN=${name} leaf`]);
  openssl(["x509", "-req", "-in", file("leaf.csr"), "-CA", file("ca.pem"), "-CAkey", file("ca.key"), "-CAcreateserial", "-out", file("leaf.pem"), "-days", "1"]);
  return { key: file("leaf.key"), leaf: file("leaf.pem"), ca: file("ca.pem"), file };
}

function exportPkcs12(chain: ReturnType<typeof makeChain>, out: string, extra: string[], pass = password): Uint8Array {
  openssl(["pkcs12", "-export", "-inkey", chain.key, "-in", chain.leaf, "-certfile", chain.ca, "-passout", `pass:${pass}`, "-out", out, ...extra]);
  return fs.readFileSync(out);
}

function derOf(pemFile: string): Buffer {
  const base64 = fs.readFileSync(pemFile, "utf8").replace(/-----[^-]+-----/g, "").replace(/\s+/g, "");
  return Buffer.from(base64, "base64");
}

describe("importPkcs12", () => {
  let dir: string;
  let rsa: ReturnType<typeof makeChain>;
  let ec: ReturnType<typeof makeChain>;

  beforeAll(() => {
    dir = makeTempDir("pki-p12");
    rsa = makeChain(dir, "rsa", ["rsa:2048"]);
    ec = makeChain(dir, "ec", ["ec", "-pkeyopt", "ec_paramgen_curve:P-256"]);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const variants = [
    { name: "default (PBES2 AES-256, SHA-256 MAC)", args: [] },
    { name: "legacy (RC2-40 certificates, 3DES key, SHA-1 MAC)", args: ["-legacy"] },
    { name: "3DES for key and certificates", args: ["-keypbe", "PBE-SHA1-3DES", "-certpbe", "PBE-SHA1-3DES", "-macalg", "sha1"] },
    { name: "PBES2 AES-128 with SHA-512 MAC", args: ["-keypbe", "AES-128-CBC", "-certpbe", "AES-128-CBC", "-macalg", "sha512"] },
    { name: "unencrypted certificates", args: ["-certpbe", "NONE"] },
    { name: "no MAC", args: ["-nomac"] },
  ];

  for (const keyType of ["rsa", "ec"] as const) {
    it.each(variants)(`imports ${keyType}: $name`, async ({ args }) => {
      const chain = keyType === "rsa" ? rsa : ec;
      const bytes = exportPkcs12(chain, path.join(dir, `${keyType}-${args.join("") || "default"}.p12`), args);
      const imported = await importPkcs12(bytes, password);
      expect(Buffer.from(imported.certificateDer).equals(derOf(chain.leaf))).toBe(true);
      expect(imported.chainDer.map((der) => Buffer.from(der).toString("hex"))).toEqual([derOf(chain.ca).toString("hex")]);
      // the key must be the leaf's: compare the public key openssl derives from each
      const publicFromKey = openssl(["pkey", "-pubout"], { input: Buffer.from(toPem(imported.pkcs8, "PRIVATE KEY")) });
      expect(publicFromKey).toBe(openssl(["x509", "-noout", "-pubkey", "-in", chain.leaf]));
      const cryptoKey = await importPrivateKey(imported.pkcs8);
      expect(cryptoKey.algorithm.name).toBe(keyType === "rsa" ? "RSASSA-PKCS1-v1_5" : "ECDSA");
    });
  }

  it.each([
    { name: "with a MAC", args: [] },
    { name: "legacy", args: ["-legacy"] },
    { name: "without a MAC", args: ["-nomac"] },
  ])("rejects a wrong password ($name)", async ({ args }) => {
    const bytes = exportPkcs12(rsa, path.join(dir, `wrong-${args.join("")}.p12`), args);
    await expect(importPkcs12(bytes, "not-the-password")).rejects.toSatisfy((error) => isPkiError(error, "WRONG_PKCS12_PASSWORD"));
  });

  it("rejects a file without a private key", async () => {
    const out = path.join(dir, "nokeys.p12");
    openssl(["pkcs12", "-export", "-nokeys", "-in", rsa.leaf, "-passout", `pass:${password}`, "-out", out]);
    await expect(importPkcs12(fs.readFileSync(out), password)).rejects.toSatisfy((error) => isPkiError(error, "INVALID_PKCS12"));
  });

  it("rejects a file without a certificate", async () => {
    const out = path.join(dir, "mismatch.p12");
    openssl(["pkcs12", "-export", "-inkey", ec.key, "-in", rsa.leaf, "-passout", `pass:${password}`, "-out", out, "-nocerts"]);
    const bytes = fs.readFileSync(out);
    await expect(importPkcs12(bytes, password)).rejects.toSatisfy((error) => isPkiError(error, "INVALID_PKCS12"));
  });

  it.each([
    { name: "garbage", bytes: Buffer.from("definitely not a pkcs12 file") },
    { name: "empty", bytes: Buffer.alloc(0) },
    { name: "a certificate", bytes: Buffer.alloc(0) },
  ])("rejects $name as INVALID_PKCS12", async ({ name, bytes }) => {
    const input = name === "a certificate" ? derOf(rsa.leaf) : bytes;
    await expect(importPkcs12(input, password)).rejects.toSatisfy((error) => isPkiError(error, "INVALID_PKCS12"));
  });
});

describe("importPkcs12 bounds the key-derivation work before doing it", () => {
  let dir: string;
  let chain: ReturnType<typeof makeChain>;
  beforeAll(() => {
    dir = makeTempDir("pki-p12-cost");
    chain = makeChain(dir, "cost", ["ec", "-pkeyopt", "ec_paramgen_curve:P-256"]);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("a MAC asking for 5,000,000 iterations is refused at once, naming the count and the limit", async () => {
    // -nomaciter off: the MAC uses the same count; the certificates are left unencrypted so only the MAC and key cost
    const bytes = exportPkcs12(chain, path.join(dir, "5m.p12"), ["-iter", "5000000", "-certpbe", "NONE", "-keypbe", "NONE"]);
    const started = Date.now();
    const error = await importPkcs12(bytes, password).catch((e: unknown) => e);
    expect(isPkiError(error, "PKCS12_TOO_COSTLY")).toBe(true);
    expect((error as Error).message).toContain("5,000,000");
    expect((error as Error).message).toContain("2,000,000");
    // refused before any derivation: far below the ~5 s the derivation would take
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("a file at the common 2,048 iterations imports", async () => {
    const bytes = exportPkcs12(chain, path.join(dir, "2048.p12"), ["-iter", "2048"]);
    expect((await importPkcs12(bytes, password)).certificateDer.length).toBeGreaterThan(0);
  });
});

