#!/usr/bin/env node
// validate-pdf: judges a signed PDF with validators that share no code with the service:
//   qpdf --check                         file structure
//   pdfsig (poppler + NSS)               each signature, our CA imported into a throw-away NSS db
//   SignatureCheck (PDFBox + BouncyCastle, ours, compiled here with javac)  ranges, gap, digest, CMS,
//                                        ESS, chains, time-stamps, DSS/VRI, changes after the last signature
//   openssl ts -verify                   every RFC 3161 token SignatureCheck found
// Usage: validate-pdf.mjs FILE.pdf [--ca CA.pem]... [--json] [--allow-unsigned] [--allow-unsigned-updates]
//        [--fail-on-qpdf-warnings]. Last line `validate-pdf: PASS (N signatures)` or `validate-pdf: FAIL: ...`;
// exit 0 pass, 1 fail, 2 usage error or missing tool.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { compileSignatureCheck, javaClassPath } from "./java-classes.mjs";
import { importAnchors } from "./nss-anchors.mjs";

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: 150_000, ...options });
  if (r.error && r.error.code === "ENOENT") usage(`missing command ${command} (see scripts/debian-packages.txt)`);
  return { code: r.status ?? -1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

function usage(message) {
  process.stderr.write(`validate-pdf: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const options = { pdf: "", cas: [], json: false, javaFlags: [], failOnQpdfWarnings: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--ca") options.cas.push(argv[++i] ?? usage("--ca needs a file"));
    else if (a === "--json") options.json = true;
    else if (a === "--allow-unsigned" || a === "--allow-unsigned-updates") options.javaFlags.push(a);
    else if (a === "--fail-on-qpdf-warnings") options.failOnQpdfWarnings = true;
    else if (a.startsWith("-")) usage(`unknown option ${a}`);
    else if (options.pdf) usage("more than one PDF given");
    else options.pdf = a;
  }
  if (!options.pdf || !fs.existsSync(options.pdf)) usage(`cannot read ${options.pdf || "(no file given)"}`);
  return options;
}

/** pdfsig's blocks, keyed by "start length start length" of the signed ranges. */
function pdfsigSignatures(output) {
  const out = [];
  for (const block of output.split(/^(?=Signature #\d+:)/m).filter((b) => b.startsWith("Signature #"))) {
    const field = (key) => new RegExp(`- ${key}: (.*)`).exec(block)?.[1].trim() ?? "-";
    const ranges = (/- Signed Ranges: (.*)/.exec(block)?.[1].match(/\d+/g) ?? []).map(Number);
    out.push({
      index: Number(/^Signature #(\d+)/.exec(block)[1]),
      fieldName: field("Signature Field Name"),
      byteRange: ranges.length === 4 ? [ranges[0], ranges[1] - ranges[0], ranges[2], ranges[3] - ranges[2]] : [],
      signatureType: field("Signature Type"),
      signatureValidation: field("Signature Validation"),
      certificateValidation: field("Certificate Validation"),
    });
  }
  return out;
}

function opensslTs(dump, index, anchorsPem) {
  const pool = path.join(dump, "certs.pem");
  const hasPool = fs.existsSync(pool) && fs.statSync(pool).size > 0;
  const args = ["ts", "-verify", "-token_in", "-in", path.join(dump, `sig${index}.tst.der`), "-data", path.join(dump, `sig${index}.tst.data`)];
  if (hasPool) args.push("-untrusted", pool);
  if (anchorsPem) args.push("-CAfile", anchorsPem);
  else if (hasPool) args.push("-CAfile", pool, "-partial_chain"); // no anchors: signature, ESS id and EKU are still judged
  else return "skipped: no TSA certificate and no --ca";
  const r = run("openssl", args);
  if (r.code === 0) return "OK";
  const why = `${r.stdout}\n${r.stderr}`.split("\n").filter((l) => l && !/^(Verification|Using configuration|Warning: )/.test(l));
  return `FAILED: ${why.slice(0, 2).join(" ").replace(/\s+/g, " ").slice(0, 240)}`;
}

export function validatePdfFile(options) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "validate-pdf-"));
  try {
    const classes = compileSignatureCheck();
    const reasons = [];
    const warnings = [];
    const qpdf = run("qpdf", ["--check", options.pdf]);
    const qstatus = qpdf.code === 0 ? "ok" : qpdf.code === 3 ? "warnings" : "errors";
    const qlines = `${qpdf.stdout}\n${qpdf.stderr}`.split("\n");
    const qfirst = (qlines.find((l) => l.startsWith("ERROR")) ?? qlines.find((l) => l.startsWith("qpdf: ") && !l.includes("operation succeeded")) ?? qlines.find((l) => l.startsWith("WARNING")) ?? "").slice(0, 300);
    if (qstatus === "errors") reasons.push(`qpdf --check: ${qfirst || `exit code ${qpdf.code}`}`);
    if (qstatus === "warnings") (options.failOnQpdfWarnings ? reasons : warnings).push(`qpdf --check${options.failOnQpdfWarnings ? " warnings" : ""}: ${qfirst}`);

    const { nssDir, anchorsPem } = importAnchors(work, options.cas);
    // without -no-ocsp: poppler 22.12 then answers "Unknown issue with Certificate"; its OCSP check is soft-fail
    const pdfsig = run("pdfsig", ["-nssdir", `sql:${nssDir}`, options.pdf], { timeout: 120_000 });
    const popplerSigs = pdfsigSignatures(pdfsig.stdout);

    const dump = path.join(work, "dump");
    const casArgs = options.cas.flatMap((ca) => ["--ca", ca]);
    const java = run("java", ["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", `${classes}:${javaClassPath()}`, "SignatureCheck", options.pdf, ...casArgs, ...options.javaFlags, "--dump", dump]);
    let check;
    try {
      check = JSON.parse(java.stdout);
    } catch {
      check = { verdict: "invalid", signatures: [], errors: [`SignatureCheck crashed (exit ${java.code}): ${java.stderr.slice(0, 300).replace(/\s+/g, " ")}`], warnings: [], dss: {}, unsignedTail: {} };
    }
    reasons.push(...check.errors);
    warnings.push(...check.warnings);
    if (popplerSigs.length === 0 && pdfsig.code !== 0 && !/does not contain any signatures/.test(pdfsig.stdout + pdfsig.stderr) && check.signatures.length > 0)
      reasons.push(`pdfsig failed (exit ${pdfsig.code}): ${pdfsig.stderr.split("\n").find((l) => l && !l.startsWith("Syntax Warning"))?.slice(0, 200) ?? ""}`);

    const ots = {};
    const rows = [];
    const used = new Set();
    const anchored = options.cas.length > 0;
    for (const s of check.signatures) {
      if (fs.existsSync(path.join(dump, `sig${s.index}.tst.der`))) ots[s.index] = opensslTs(dump, s.index, anchorsPem);
      const yn = (v, yes, no) => (v ? yes : no);
      let jtxt = `${yn(s.digest, "digest ok", "digest MISMATCH")}, ${yn(s.cms, "CMS signature ok", "CMS signature INVALID")}, ${yn(s.gapExact, "/Contents gap exact", "/Contents gap NOT exact")}, ${yn(s.coversRevision, "covers its revision", "does NOT end at a revision end")}`;
      jtxt += s.chain === "true" ? ", chain trusted" : s.chain === "false" ? ", chain NOT trusted" : ", chain not checked (no --ca)";
      if (s.timestamp !== "-") jtxt += `, timestamp ${s.timestamp}`;
      if (s.firstError !== "-") jtxt += ` -- ${s.firstError}`;

      const p = popplerSigs.find((x) => x.byteRange.join(" ") === s.byteRange.join(" "));
      let pst = "ok";
      let ptxt;
      if (!p) {
        pst = "FAIL";
        ptxt = "pdfsig does not report this signature";
        reasons.push(`pdfsig does not report signature ${s.index} (${s.field})`);
      } else {
        used.add(p.index);
        ptxt = `${p.signatureValidation} | ${p.certificateValidation}`;
        if (s.type === "doc-timestamp" && p.signatureValidation !== "Signature is Valid.") {
          if (p.signatureValidation === "Signature has not yet been verified." || p.signatureType === "unknown") {
            pst = "n/a";
            ptxt = `cannot verify RFC 3161 document timestamps (${p.signatureValidation})`;
          } else {
            pst = "FAIL";
            reasons.push(`pdfsig: signature ${s.index} (${s.field}): ${p.signatureValidation}`);
          }
        } else if (p.signatureValidation !== "Signature is Valid.") {
          pst = "FAIL";
          reasons.push(`pdfsig: signature ${s.index} (${s.field}): ${p.signatureValidation}`);
        } else if (anchored && p.certificateValidation !== "Certificate is Trusted.") {
          pst = "FAIL";
          reasons.push(`pdfsig: signature ${s.index} (${s.field}): ${p.certificateValidation}`);
        } else if (!anchored) ptxt = `${p.signatureValidation} | certificate not judged (no --ca): ${p.certificateValidation}`;
      }

      const o = ots[s.index];
      let ost = "-";
      let otxt = "no timestamp token";
      if (o === "OK") [ost, otxt] = ["ok", `Verification: OK${anchored ? "" : " (TSA certificate trusted as given: no --ca)"}`];
      else if (o?.startsWith("skipped")) [ost, otxt] = ["n/a", o];
      else if (o) {
        [ost, otxt] = ["FAIL", o];
        reasons.push(`openssl ts -verify: signature ${s.index} (${s.field}) timestamp: ${o.replace(/^FAILED: /, "")}`);
      }
      const pad = (label, status, text) => `  ${label.padEnd(11)} ${status.padEnd(5)} ${text}`;
      rows.push(
        `signature ${s.index}: "${s.field}"  ${s.type}  ${s.subFilter}  revision ${s.revision ?? "none"}/${check.revisions}`,
        `  signer      ${s.signer}`,
        pad("PDFBox+BC", s.valid ? "ok" : "FAIL", jtxt),
        pad("pdfsig", pst, ptxt),
        pad("openssl ts", ost, otxt),
      );
    }
    for (const p of popplerSigs) if (!used.has(p.index)) reasons.push(`pdfsig reports signature #${p.index} (${p.fieldName}) that PdfSignatureCheck does not`);

    const n = check.signatures.length;
    const pass = reasons.length === 0;
    const verdict = pass ? `validate-pdf: PASS (${n} signature${n === 1 ? "" : "s"})` : `validate-pdf: FAIL: ${reasons[0]}${reasons.length > 1 ? ` (+${reasons.length - 1} more)` : ""}`;
    const json = { file: options.pdf, pass, reasons, warnings, qpdf: { exitCode: qpdf.code, status: qstatus, output: qpdf.stdout + qpdf.stderr }, pdfsig: { exitCode: pdfsig.code, signatures: popplerSigs }, opensslTs: Object.entries(ots).map(([signature, result]) => ({ signature: Number(signature), result })), pdfSignatureCheck: check };
    const qlabel = qstatus === "ok" ? "ok" : qstatus === "warnings" && !options.failOnQpdfWarnings ? "warn" : "FAIL";
    const text = [
      `${options.pdf}: ${check.size ?? "?"} bytes, ${check.revisions ?? "?"} revision(s), ${n} signature(s), anchors: ${anchored ? options.cas.join(" ") : "none (chains not judged)"}`,
      `  ${"qpdf".padEnd(11)} ${qlabel.padEnd(5)} ${qfirst || "no syntax or stream errors"}`,
      `  ${"PDFBox+BC".padEnd(11)} ${(check.verdict === "valid" ? "ok" : "FAIL").padEnd(5)} verdict ${check.verdict}; DSS ${check.dss?.present ? JSON.stringify(check.dss) : "-"}; unsigned revisions after last signature: ${check.unsignedTail?.revisions ?? "-"}`,
      `  ${"pdfsig".padEnd(11)} ${(popplerSigs.length === n ? "ok" : "FAIL").padEnd(5)} ${popplerSigs.length} signature(s) found`,
      ...rows,
      ...warnings.map((w) => `  note: ${w}`),
      ...reasons.map((r) => `  FAIL: ${r}`),
      verdict,
    ].join("\n");
    return { pass, verdict, text, json };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fs.realpathSync(new URL(import.meta.url).pathname)) {
  const options = parseArgs(process.argv.slice(2));
  const result = validatePdfFile(options);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result.json, null, 2)}\n`);
    process.stderr.write(`${result.verdict}\n`);
  } else process.stdout.write(`${result.text}\n`);
  process.exit(result.pass ? 0 : 1);
}
