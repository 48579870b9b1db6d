import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { openLazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { readDssMaterial } from "@/lib/verification/read-dss-material";
import { VALIDATE_PDF } from "@/test/validators/commands";

const run = promisify(execFile);

async function capture(command: string, args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { timeout: 240_000, maxBuffer: 32 * 1024 * 1024 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

/** validate-pdf (qpdf, pdfsig with our CA trusted, PDFBox, openssl ts), optionally with the clock moved by faketime ("+1d", "+365d"). */
export async function validatePdfAt(file: string, caPem: string, clockOffset?: string): Promise<{ ok: boolean; output: string }> {
  const command = [VALIDATE_PDF, file, "--ca", caPem];
  const { code, output } = clockOffset ? await capture("faketime", ["-f", clockOffset, ...command]) : await capture(command[0], command.slice(1));
  return { ok: code === 0 && /validate-pdf: PASS/.test(output), output };
}

/** One line per signature from pdfsig with a throw-away NSS database that trusts `caPem`, at the faked clock. */
export async function pdfsigAt(file: string, caPem: string, dir: string, clockOffset?: string): Promise<{ signatures: string[]; certificates: string[]; output: string }> {
  const nss = fs.mkdtempSync(path.join(dir, "nss-"));
  await capture("certutil", ["-N", "-d", `sql:${nss}`, "--empty-password"]);
  const pems = fs.readFileSync(caPem, "utf8").match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  for (const [index, pem] of pems.entries()) {
    const one = path.join(nss, `ca${index}.pem`);
    fs.writeFileSync(one, pem);
    await capture("certutil", ["-A", "-d", `sql:${nss}`, "-n", `ca${index}`, "-t", "CT,C,C", "-i", one]);
  }
  const command = ["pdfsig", "-nssdir", `sql:${nss}`, file];
  const { output } = clockOffset ? await capture("faketime", ["-f", clockOffset, ...command]) : await capture(command[0], command.slice(1));
  return {
    signatures: [...output.matchAll(/- Signature Validation: (.*)/g)].map((m) => m[1].trim()),
    certificates: [...output.matchAll(/- Certificate Validation: (.*)/g)].map((m) => m[1].trim()),
    output,
  };
}

export type DssTiming = { crl: string; issuer: string; thisUpdate: Date; covers: { subject: string; notBefore: Date }[]; verified: boolean };

const opensslDate = (text: string) => new Date(text.trim().replace(/ GMT$/, " UTC"));

/**
 * Every CRL of the document's DSS read by openssl: its signature checked against the DSS
 * certificates (`openssl crl -CAfile`), its lastUpdate, and the notBefore of every DSS
 * certificate its issuer issued.
 */
export async function dssCrlTimings(pdf: Uint8Array, dir: string): Promise<DssTiming[]> {
  const material = readDssMaterial(openLazyPdf(pdf));
  const work = fs.mkdtempSync(path.join(dir, "dss-"));
  const certificates: { subject: string; issuer: string; notBefore: Date }[] = [];
  let bundle = "";
  for (const [index, der] of material.certificatesDer.entries()) {
    const file = path.join(work, `cert${index}.der`);
    fs.writeFileSync(file, der);
    const text = (await capture("openssl", ["x509", "-inform", "DER", "-in", file, "-noout", "-subject", "-issuer", "-startdate", "-nameopt", "RFC2253"])).output;
    certificates.push({ subject: /subject=(.*)/.exec(text)![1].trim(), issuer: /issuer=(.*)/.exec(text)![1].trim(), notBefore: opensslDate(/notBefore=(.*)/.exec(text)![1]) });
    bundle += (await capture("openssl", ["x509", "-inform", "DER", "-in", file])).output;
  }
  const bundleFile = path.join(work, "bundle.pem");
  fs.writeFileSync(bundleFile, bundle);
  const timings: DssTiming[] = [];
  for (const [index, der] of material.crlsDer.entries()) {
    const file = path.join(work, `crl${index}.der`);
    fs.writeFileSync(file, der);
    const { output } = await capture("openssl", ["crl", "-inform", "DER", "-in", file, "-noout", "-issuer", "-lastupdate", "-CAfile", bundleFile, "-nameopt", "RFC2253"]);
    const issuer = /issuer=(.*)/.exec(output)![1].trim();
    timings.push({
      crl: `crl${index}`,
      issuer,
      thisUpdate: opensslDate(/lastUpdate=(.*)/.exec(output)![1]),
      covers: certificates.filter((c) => c.issuer === issuer && c.subject !== issuer),
      verified: /verify OK/.test(output),
    });
  }
  return timings;
}

const ITEXT_SOURCE = path.join(__dirname, "itext-check", "ItextLtvCheck.java");
const ITEXT_CLASSPATH = ["itext5", "bcprov", "bcpkix", "bcutil"].map((jar) => `/usr/share/java/${jar}.jar`).join(":");

/** Compiles the iText 5 checker once per source version (Debian libitext5-java + BouncyCastle). */
async function itextClasses(): Promise<string> {
  const source = fs.readFileSync(ITEXT_SOURCE);
  const key = createHash("sha256").update(source).digest("hex").slice(0, 16);
  const classes = path.join(os.tmpdir(), `fv-itext-check-${key}`);
  if (fs.existsSync(path.join(classes, "ItextLtvCheck.class"))) return classes;
  const build = fs.mkdtempSync(`${classes}.build-`);
  const { code, output } = await capture("javac", ["-nowarn", "-d", build, "-cp", ITEXT_CLASSPATH, ITEXT_SOURCE]);
  if (code !== 0) throw new Error(`cannot compile ItextLtvCheck: ${output}`);
  try {
    fs.renameSync(build, classes);
  } catch {
    // another run compiled it meanwhile
  }
  return fs.existsSync(path.join(classes, "ItextLtvCheck.class")) ? classes : build;
}

/** The third validator: iText 5's signature, time-stamp, chain and LtvVerifier (DSS only, offline) checks. */
export async function itextCheckAt(file: string, anchorFiles: string[], clockOffset?: string): Promise<{ ok: boolean; output: string }> {
  const command = ["java", "-cp", `${await itextClasses()}:${ITEXT_CLASSPATH}`, "ItextLtvCheck", file, ...anchorFiles];
  const { code, output } = clockOffset ? await capture("faketime", ["-f", clockOffset, ...command]) : await capture(command[0], command.slice(1));
  return { ok: code === 0 && /itext: PASS/.test(output), output };
}
