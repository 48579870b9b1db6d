// The inputs and key material of bench/sign.ts: generated files are cached in bench/out/ (gitignored),
// key material is made fresh on each run.
import { execFileSync } from "node:child_process";
import { createPrivateKey } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { FIXTURES, OUT, P12_PASSPHRASE, PKI_DIR, type InputId } from "./sign-case";

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

/** Builds `target` with qpdf through a temporary name, unless a cached copy exists. */
function cached(target: string, build: (tmp: string) => void): string {
  if (existsSync(target) && statSync(target).size > 0) return target;
  const tmp = `${target}.tmp-${process.pid}.pdf`;
  build(tmp);
  renameSync(tmp, target);
  return target;
}

export function ensureInputs(): Record<InputId, string> {
  mkdirSync(OUT, { recursive: true });
  const tiny = path.join(FIXTURES, "libreoffice70-tiny.pdf");

  // 14 + 55 + 23 + 8 = 100 pages, three producers (pdfTeX, OpenOffice, HTMLDOC)
  const hundred = cached(path.join(OUT, "input-100-pages.pdf"), (tmp) => {
    log("building the 100-page input with qpdf");
    run("qpdf", [
      "--empty", "--pages",
      path.join(FIXTURES, "classic-xref-pdftex-tracemonkey.pdf"), "1-z",
      path.join(FIXTURES, "openoffice-55pages-links.pdf"), "1-z",
      path.join(FIXTURES, "pdf13-htmldoc-23pages.pdf"), "1-z",
      path.join(FIXTURES, "pdftex-libtasn1-manual.pdf"), "1-8",
      "--", tmp,
    ]);
  });

  // qpdf shares the objects of a file listed twice, so repeat distinct copies of a 1 MB fixture
  const large = cached(path.join(OUT, "input-50mb.pdf"), (tmp) => {
    const source = path.join(FIXTURES, "classic-xref-pdftex-tracemonkey.pdf");
    const copies = Math.ceil(50_000_000 / statSync(source).size);
    log(`building the ~50 MB input with qpdf (${copies} copies of ${path.basename(source)})`);
    const dir = path.join(OUT, `copies-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    const pages: string[] = [];
    for (let i = 0; i < copies; i++) {
      const copy = path.join(dir, `c${i}.pdf`);
      copyFileSync(source, copy);
      pages.push(copy, "1-z");
    }
    try {
      run("qpdf", ["--empty", "--pages", ...pages, "--", tmp]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  return { "1p": tiny, "100p": hundred, "50mb": large };
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
