// A throw-away NSS database for pdfsig with each trust anchor imported as a CA (CT,C,C). certutil -A
// reads only the first certificate of a file, so a bundle is split first.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

function certutil(args) {
  const r = spawnSync("certutil", args, { encoding: "utf8" });
  if (r.error) {
    process.stderr.write("validate-pdf: missing certutil (apt-get install libnss3-tools)\n");
    process.exit(2);
  }
  if (r.status !== 0) throw new Error(`certutil ${args[0]}: ${r.stdout}${r.stderr}`);
}

/** The NSS folder and one PEM file holding every anchor (or null when there is none). */
export function importAnchors(work, caFiles) {
  const nssDir = path.join(work, "nss");
  fs.mkdirSync(nssDir);
  certutil(["-N", "-d", `sql:${nssDir}`, "--empty-password"]);
  const pems = caFiles.flatMap((file) => fs.readFileSync(file, "utf8").match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []);
  if (caFiles.length && !pems.length) throw new Error(`no PEM certificate in ${caFiles.join(", ")}`);
  pems.forEach((pem, i) => {
    const one = path.join(work, `anchor-${i}.pem`);
    fs.writeFileSync(one, `${pem}\n`);
    certutil(["-A", "-d", `sql:${nssDir}`, "-n", `anchor-${i}`, "-t", "CT,C,C", "-i", one]);
  });
  if (!pems.length) return { nssDir, anchorsPem: null };
  const anchorsPem = path.join(work, "anchors.pem");
  fs.writeFileSync(anchorsPem, `${pems.join("\n")}\n`);
  return { nssDir, anchorsPem };
}
