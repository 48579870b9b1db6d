#!/usr/bin/env node
// validate-tsr: an RFC 3161 time-stamp response (or, with --token, a bare token) judged by openssl:
// status granted, then `openssl ts -verify` (imprint, nonce and policy with --query, CMS signature, ESS
// certificate id, critical timeStamping EKU, chain to --ca).
// Usage: validate-tsr.mjs RESPONSE (--data FILE | --digest HEX | --query REQUEST.tsq) --ca CA.pem
//        [--untrusted TSA.pem] [--token]. Last line `validate-tsr: PASS` or `validate-tsr: FAIL: ...`.
import { spawnSync } from "node:child_process";

function usage(message) {
  process.stderr.write(`validate-tsr: ${message}\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
let input = "";
let token = false;
const what = [];
const trust = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const value = () => args[++i] ?? usage(`${a} needs a value`);
  if (a === "--data") what.push("-data", value());
  else if (a === "--digest") what.push("-digest", value());
  else if (a === "--query") what.push("-queryfile", value());
  else if (a === "--ca") trust.push("-CAfile", value());
  else if (a === "--untrusted") trust.push("-untrusted", value());
  else if (a === "--token") token = true;
  else if (a.startsWith("-") || input) usage(`unexpected argument ${a}`);
  else input = a;
}
if (!input || what.length !== 2 || !trust.includes("-CAfile")) usage("RESPONSE (--data|--digest|--query) --ca CA.pem are required");

const openssl = (list) => {
  const r = spawnSync("openssl", list, { encoding: "utf8" });
  if (r.error) usage("missing openssl");
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}` };
};
const fail = (reason, output) => {
  process.stdout.write(`${output}\nvalidate-tsr: FAIL: ${reason}\n`);
  process.exit(1);
};

const inArgs = token ? ["-in", input, "-token_in"] : ["-in", input];
const text = openssl(["ts", "-reply", ...inArgs, "-text"]);
if (!text.ok) fail("openssl cannot read the response", text.out);
if (!token && !/Status: Granted\./.test(text.out)) fail(`status is not granted (${/Status: (.*)/.exec(text.out)?.[1] ?? "none"})`, text.out);
const verify = openssl(["ts", "-verify", ...inArgs, ...what, ...trust]);
if (!verify.ok || !/Verification: OK/.test(verify.out)) fail(`openssl ts -verify: ${verify.out.split("\n").filter((l) => l && !l.startsWith("Using configuration")).slice(0, 3).join(" ")}`, text.out + verify.out);
process.stdout.write(`${text.out}${verify.out}validate-tsr: PASS\n`);
