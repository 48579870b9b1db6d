import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { der } from "@/lib/pki/der-encoder";
import { createPkiHierarchy, type PkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { oids } from "@/lib/pki/object-identifiers";
import { makeTempDir, openssl, toPem, writeFiles } from "@/lib/pki/testing/openssl-cli";
import { readTimeStampResponse } from "@/lib/tsa/read-time-stamp-response";
import { respondToTimeStampRequest, type TimeStampResponderOptions } from "@/lib/tsa/respond-to-time-stamp-request";
import { VALIDATE_TSR } from "@/test/validators/commands";

const policyOid = "1.3.6.1.4.1.99999.1.1";
const otherAcceptedPolicy = "1.3.6.1.4.1.99999.1.2";
const validateTsr = VALIDATE_TSR;

describe("respondToTimeStampRequest", () => {
  let dir: string;
  let pki: PkiHierarchy;
  let options: TimeStampResponderOptions;
  let files: Record<"root.pem" | "chain.pem" | "data.txt", string>;
  let counter = 0n;

  beforeAll(async () => {
    dir = makeTempDir("tsa-respond");
    pki = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "https://crl.example.test" });
    files = writeFiles(dir, {
      "root.pem": toPem(pki.root.certificateDer),
      // what a client without certReq needs: the TSA certificate and its issuer
      "chain.pem": toPem(pki.tsa.certificateDer) + toPem(pki.issuing.certificateDer),
      "data.txt": "contents to be time-stamped\n",
    });
    options = {
      tsa: { certificateDer: pki.tsa.certificateDer, privateKey: pki.tsa.privateKey, chainDer: [pki.issuing.certificateDer] },
      policyOid,
      acceptedPolicies: [policyOid, otherAcceptedPolicy],
      nextSerialNumber: async () => ++counter,
    };
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function query(name: string, args: string[]): string {
    const file = path.join(dir, `${name}.tsq`);
    openssl(["ts", "-query", "-data", files["data.txt"], ...args, "-out", file]);
    return file;
  }

  async function answer(name: string, requestDer: Uint8Array, overrides: Partial<TimeStampResponderOptions> = {}): Promise<string> {
    const file = path.join(dir, `${name}.tsr`);
    fs.writeFileSync(file, await respondToTimeStampRequest(requestDer, { ...options, ...overrides }));
    return file;
  }

  function replyText(responseFile: string): string {
    return openssl(["ts", "-reply", "-in", responseFile, "-text"]);
  }

  const granted = [
    { name: "sha256-cert", args: ["-sha256", "-cert"] },
    { name: "sha256-nocert", args: ["-sha256"] },
    { name: "sha384-cert", args: ["-sha384", "-cert"] },
    { name: "sha512-nocert", args: ["-sha512"] },
    { name: "sha256-no-nonce", args: ["-sha256", "-no_nonce", "-cert"] },
    { name: "sha512-policy", args: ["-sha512", "-cert", "-tspolicy", otherAcceptedPolicy] },
    { name: "sha256-own-policy", args: ["-sha256", "-no_nonce", "-tspolicy", policyOid] },
  ];

  it.each(granted)("grants $name and openssl ts -verify says OK", async ({ name, args }) => {
    const requestFile = query(name, args);
    const responseFile = await answer(name, fs.readFileSync(requestFile));
    const verified = openssl(["ts", "-verify", "-in", responseFile, "-queryfile", requestFile, "-CAfile", files["root.pem"], "-untrusted", files["chain.pem"]]);
    expect(verified).toContain("Verification: OK");

    const text = replyText(responseFile);
    expect(text).toContain("Status: Granted.");
    expect(text).toMatch(/Time stamp: \w{3} +\d+ \d\d:\d\d:\d\d(\.\d+)? \d{4} GMT/);
    expect(text).toContain("Accuracy: 0x01 seconds, unspecified millis, unspecified micros");
    expect(text).toContain(`Policy OID: ${args.includes("-tspolicy") ? args[args.indexOf("-tspolicy") + 1] : policyOid}`);
    if (args.includes("-no_nonce")) expect(text).toContain("Nonce: unspecified");

    // certificates only when certReq was set (RFC 3161 2.4.1)
    const printed = openssl(["cms", "-cmsout", "-print", "-inform", "DER"], { input: readToken(responseFile) });
    expect(/certificates:\s+<ABSENT>/.test(printed)).toBe(!args.includes("-cert"));
    expect(printed).toContain("id-smime-aa-signingCertificateV2");
    expect(printed).not.toContain("signingTime");
  });

  it.each(granted)("passes the project's validate-tsr for $name", async ({ name, args }) => {
    const requestFile = query(`v-${name}`, args);
    const responseFile = await answer(`v-${name}`, fs.readFileSync(requestFile));
    const validatorArgs = [responseFile, "--query", requestFile, "--ca", files["root.pem"], ...(args.includes("-cert") ? [] : ["--untrusted", files["chain.pem"]])];
    const result = spawnSync(validateTsr, validatorArgs, { encoding: "utf8" });
    expect(result.stdout + result.stderr).toContain("validate-tsr: PASS");
    expect(result.status).toBe(0);
  });

  it("echoes a long nonce byte for byte and copies the imprint as received", async () => {
    const digest = new Uint8Array(32).fill(7);
    const nonce = Uint8Array.from([0x00, 0x80, ...new Array(18).fill(0x5a)]); // 20 octets, leading zero kept
    // hash AlgorithmIdentifier without NULL parameters
    const imprint = der.sequence(der.sequence(der.oid(oids.sha256)), der.octetString(digest));
    const request = der.sequence(der.integer(1), imprint, der.integer(nonce), der.boolean(true));
    const response = readTimeStampResponse(await respondToTimeStampRequest(request, options));
    expect(response.status).toBe(0);
    expect(Buffer.from(response.tstInfo!.nonceContentDer!).equals(nonce)).toBe(true);
    expect(Buffer.from(response.tokenDer!).includes(Buffer.from(imprint))).toBe(true);
    const files2 = writeFiles(dir, { "long-nonce.tsq": request, "long-nonce.tsr": await respondToTimeStampRequest(request, options) });
    const verified = openssl(["ts", "-verify", "-in", files2["long-nonce.tsr"], "-queryfile", files2["long-nonce.tsq"], "-CAfile", files["root.pem"]]);
    expect(verified).toContain("Verification: OK");
  });

  it("accepts a non-critical extension and uses the given clock", async () => {
    const extension = der.sequence(der.oid("1.2.3.4.5"), der.octetString(Uint8Array.of(5, 0)));
    const imprint = der.sequence(der.sequence(der.oid(oids.sha256), der.null()), der.octetString(new Uint8Array(32)));
    const request = der.sequence(der.integer(1), imprint, der.tlv(0xa0, extension));
    const now = new Date("2031-02-03T04:05:06.789Z");
    const response = readTimeStampResponse(await respondToTimeStampRequest(request, { ...options, now: () => now }));
    expect(response.status).toBe(0);
    expect(response.tstInfo!.genTime.toISOString()).toBe(now.toISOString());
  });

  it("uses unique, increasing serial numbers from the caller's counter", async () => {
    const requestFile = query("serials", ["-sha256"]);
    const serials: bigint[] = [];
    for (let i = 0; i < 5; i++) {
      const response = readTimeStampResponse(await respondToTimeStampRequest(fs.readFileSync(requestFile), options));
      serials.push(response.tstInfo!.serialNumber);
    }
    for (let i = 1; i < serials.length; i++) expect(serials[i]! > serials[i - 1]!).toBe(true);
    expect(new Set(serials).size).toBe(5);
    const last = replyText(await answer("serial-last", fs.readFileSync(requestFile)));
    expect(last).toContain(`Serial number: 0x${(serials.at(-1)! + 1n).toString(16).toUpperCase().padStart(2, "0")}`);
  });

  const sha256Imprint = (digest: Uint8Array, algorithmOid: string = oids.sha256) =>
    der.sequence(der.sequence(der.oid(algorithmOid), der.null()), der.octetString(digest));
  const rejections: { name: string; request: () => Uint8Array; failInfo: string; failure: string }[] = [
    { name: "SHA-1 imprint", request: () => fs.readFileSync(query("sha1", ["-sha1"])), failInfo: "unrecognized or unsupported algorithm identifier", failure: "badAlg" },
    { name: "MD5 imprint", request: () => fs.readFileSync(query("md5", ["-md5"])), failInfo: "unrecognized or unsupported algorithm identifier", failure: "badAlg" },
    { name: "unknown hash OID", request: () => der.sequence(der.integer(1), sha256Imprint(new Uint8Array(32), "1.2.3.4")), failInfo: "unrecognized or unsupported algorithm identifier", failure: "badAlg" },
    { name: "SHA-256 with a 20-byte imprint", request: () => der.sequence(der.integer(1), sha256Imprint(new Uint8Array(20))), failInfo: "the data submitted has the wrong format", failure: "badDataFormat" },
    { name: "SHA-512 with a 32-byte imprint", request: () => der.sequence(der.integer(1), sha256Imprint(new Uint8Array(32), oids.sha512)), failInfo: "the data submitted has the wrong format", failure: "badDataFormat" },
    { name: "garbage bytes", request: () => Buffer.from("GET / HTTP/1.1\r\n\r\n"), failInfo: "the data submitted has the wrong format", failure: "badDataFormat" },
    { name: "an empty body", request: () => new Uint8Array(0), failInfo: "the data submitted has the wrong format", failure: "badDataFormat" },
    { name: "trailing bytes", request: () => Buffer.concat([der.sequence(der.integer(1), sha256Imprint(new Uint8Array(32))), Buffer.from([0])]), failInfo: "the data submitted has the wrong format", failure: "badDataFormat" },
    { name: "version 2", request: () => der.sequence(der.integer(2), sha256Imprint(new Uint8Array(32))), failInfo: "the data submitted has the wrong format", failure: "badDataFormat" },
    { name: "an unknown policy", request: () => fs.readFileSync(query("policy", ["-sha256", "-tspolicy", "1.2.3.4.5.6"])), failInfo: "the requested TSA policy is not supported by the TSA", failure: "unacceptedPolicy" },
    {
      name: "a critical extension",
      request: () => der.sequence(der.integer(1), sha256Imprint(new Uint8Array(32)), der.tlv(0xa0, der.sequence(der.oid("1.2.3.4.5"), der.boolean(true), der.octetString(Uint8Array.of(5, 0))))),
      failInfo: "the requested extension is not supported by the TSA",
      failure: "unacceptedExtension",
    },
  ];

  it.each(rejections)("rejects $name with $failure", async ({ name, request, failInfo, failure }) => {
    const before = counter;
    const responseFile = await answer(`reject-${name.replace(/\W+/g, "-")}`, request());
    const text = replyText(responseFile);
    expect(text).toContain("Status: Rejected.");
    expect(text).toContain(`Failure info: ${failInfo}`);
    const response = readTimeStampResponse(fs.readFileSync(responseFile));
    expect(response.status).toBe(2);
    expect(response.failures).toEqual([failure]);
    expect(response.tokenDer).toBeUndefined();
    expect(counter).toBe(before); // rejected requests consume no serial number
  });
});

function readToken(responseFile: string): Buffer {
  const tokenFile = `${responseFile}.token`;
  openssl(["ts", "-reply", "-in", responseFile, "-token_out", "-out", tokenFile]);
  return fs.readFileSync(tokenFile);
}
