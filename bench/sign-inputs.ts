// The inputs and key material of bench/sign.ts: generated files are cached in bench/out/ (gitignored),
// key material is made fresh on each run.
import { execFileSync } from "node:child_process";
import { createPrivateKey } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { FIXTURES, OUT, P12_PASSPHRASE, PKI_DIR, type InputId } from "./sign-case";
import { ensureHundredPageInput, ensureLargeInput } from "./large-input";

function pemToDer(pem: string): Uint8Array {
  return new Uint8Array(Buffer.from(pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, ""), "base64"));
}

function derToPem(der: Uint8Array, label = "CERTIFICATE"): string {
  const b64 = Buffer.from(der).toString("base64").replace(/.{64}/g, "$&\n");
  return `-----BEGIN ${label}-----\n${b64.trimEnd()}\n-----END ${label}-----\n`;
}

export function log(message: string) {
  process.stderr.write(`[bench] ${message}\n`);
}

function run(command: string, args: string[], cwd = OUT) {
  execFileSync(command, args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
}

export function pageCount(file: string): number {
  return Number(execFileSync("qpdf", ["--show-npages", file], { encoding: "utf8" }).trim());
}

export function ensureInputs(): Record<InputId, string> {
  return { "1p": path.join(FIXTURES, "libreoffice70-tiny.pdf"), "100p": ensureHundredPageInput(), "50mb": ensureLargeInput() };
}

/** openssl RSA-2048 CA + signer (+ .p12 for @signpdf) and our own ECDSA P-256 hierarchy + agent certificate. */
export async function ensureKeys(): Promise<{ rsaCaPem: string; ecdsaRootPem: string }> {
  rmSync(PKI_DIR, { recursive: true, force: true });
  mkdirSync(PKI_DIR, { recursive: true });
  const openssl = (...args: string[]) => run("openssl", args, PKI_DIR);

  openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "rsa-ca.key");
  openssl(
    "req", "-x509", "-new", "-key", "rsa-ca.key", "-subj", "/CN=Bench RSA Root CA/O=FirmaViva bench", "-days", "30", "-sha256",
    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign", "-out", "rsa-ca.pem",
  );
  openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "rsa-signer.key");
  openssl("req", "-new", "-key", "rsa-signer.key", "-subj", "/CN=Bench RSA Signer/O=FirmaViva bench", "-out", "rsa-signer.csr");
  writeFileSync(
    path.join(PKI_DIR, "rsa-signer.ext"),
    "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,nonRepudiation\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n",
  );
  openssl(
    "x509", "-req", "-in", "rsa-signer.csr", "-CA", "rsa-ca.pem", "-CAkey", "rsa-ca.key", "-CAcreateserial",
    "-days", "30", "-sha256", "-extfile", "rsa-signer.ext", "-out", "rsa-signer.pem",
  );
  // 3DES/SHA-1 PBE and MAC: what node-forge (inside @signpdf/signer-p12) can read
  openssl(
    "pkcs12", "-export", "-inkey", "rsa-signer.key", "-in", "rsa-signer.pem", "-certfile", "rsa-ca.pem",
    "-keypbe", "PBE-SHA1-3DES", "-certpbe", "PBE-SHA1-3DES", "-macalg", "sha1",
    "-passout", `pass:${P12_PASSPHRASE}`, "-out", "rsa-signer.p12",
  );
  const rsaKeyPem = readFileSync(path.join(PKI_DIR, "rsa-signer.key"), "utf8");
  writeFileSync(path.join(PKI_DIR, "rsa-signer.pk8"), createPrivateKey(rsaKeyPem).export({ type: "pkcs8", format: "der" }));
  writeFileSync(path.join(PKI_DIR, "rsa-signer.der"), pemToDer(readFileSync(path.join(PKI_DIR, "rsa-signer.pem"), "utf8")));

  const { createPkiHierarchy } = await import("@/lib/pki/generate-pki-hierarchy");
  const { issueAgentCertificate } = await import("@/lib/pki/issue-certificate");
  const crlBaseUrl = "https://crl.example.test/pki";
  const hierarchy = await createPkiHierarchy({ environment: "quality", crlBaseUrl });
  const agent = await issueAgentCertificate(hierarchy.issuing, { organizationName: "Bench Org SAC", domain: "bench.example.test", crlBaseUrl });
  writeFileSync(path.join(PKI_DIR, "ecdsa-root.pem"), derToPem(hierarchy.root.certificateDer));
  writeFileSync(path.join(PKI_DIR, "ecdsa-issuing.der"), hierarchy.issuing.certificateDer);
  writeFileSync(path.join(PKI_DIR, "ecdsa-agent.der"), agent.certificateDer);
  writeFileSync(path.join(PKI_DIR, "ecdsa-agent.pk8"), agent.pkcs8);
  return { rsaCaPem: path.join(PKI_DIR, "rsa-ca.pem"), ecdsaRootPem: path.join(PKI_DIR, "ecdsa-root.pem") };
}
