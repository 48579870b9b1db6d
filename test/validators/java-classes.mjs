// Compiles the repository's SignatureCheck (PDFBox + BouncyCastle from Debian's /usr/share/java) once
// per source version, into the system's temporary folder; concurrent test workers may race, and the
// loser's copy is simply dropped.
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const SOURCES = ["SignatureCheck.java", "SignatureView.java", "UnsignedTail.java", "Json.java"];
const JARS = ["pdfbox2", "fontbox2", "commons-logging", "bcprov", "bcpkix", "bcutil"];

export function javaClassPath() {
  const lib = process.env.PDF_SIG_JAVA_LIB ?? "/usr/share/java";
  return JARS.map((jar) => {
    const file = path.join(lib, `${jar}.jar`);
    if (!fs.existsSync(file)) {
      process.stderr.write(`validate-pdf: missing ${file} (apt-get install libpdfbox2-java libbcpkix-java)\n`);
      process.exit(2);
    }
    return file;
  }).join(":");
}

export function compileSignatureCheck() {
  const hash = createHash("sha256");
  for (const source of SOURCES) hash.update(fs.readFileSync(path.join(here, source)));
  const classes = path.join(os.tmpdir(), `firmaviva-signature-check-${hash.digest("hex").slice(0, 24)}`);
  if (fs.existsSync(path.join(classes, "SignatureCheck.class"))) return classes;
  const build = fs.mkdtempSync(`${classes}.build-`);
  const javac = spawnSync("javac", ["-nowarn", "-encoding", "UTF-8", "-d", build, "-cp", javaClassPath(), ...SOURCES.map((s) => path.join(here, s))], { encoding: "utf8" });
  if (javac.status !== 0) {
    process.stderr.write(`validate-pdf: javac failed (${javac.error?.message ?? ""}):\n${javac.stdout}${javac.stderr}\n`);
    process.exit(2);
  }
  try {
    fs.renameSync(build, classes);
  } catch {
    fs.rmSync(build, { recursive: true, force: true }); // another worker compiled the same source first
  }
  return classes;
}
