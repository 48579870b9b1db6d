import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPkiError } from "@/lib/pki/errors";
import { createPkiHierarchy, type PkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { makeTempDir, openssl, toPem, writeFiles } from "@/lib/pki/testing/openssl-cli";
import { createTimeStampToken } from "@/lib/tsa/create-time-stamp-token";
import { readTimeStampToken } from "@/lib/tsa/read-time-stamp-response";
import { VALIDATE_TSR } from "@/test/validators/commands";

const policyOid = "1.3.6.1.4.1.99999.1.1";

describe("createTimeStampToken", () => {
  let dir: string;
  let pki: PkiHierarchy;
  let files: Record<"root.pem" | "issuing.pem" | "document.bin", string>;
  const document = Buffer.from("document bytes covered by a document time-stamp\n".repeat(50));

  beforeAll(async () => {
    dir = makeTempDir("tsa-token");
    pki = await createPkiHierarchy({ environment: "production", crlBaseUrl: "https://crl.example.test" });
    files = writeFiles(dir, { "root.pem": toPem(pki.root.certificateDer), "issuing.pem": toPem(pki.issuing.certificateDer), "document.bin": document });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const tsa = () => ({ certificateDer: pki.tsa.certificateDer, privateKey: pki.tsa.privateKey, chainDer: [pki.issuing.certificateDer] });

  it("makes a token that openssl ts -verify and validate-tsr accept for the data", async () => {
    const now = new Date("2026-03-04T05:06:07.000Z");
    const token = await createTimeStampToken({
      digest: createHash("sha256").update(document).digest(),
      hashAlgorithm: "SHA-256",
      tsa: tsa(),
      serialNumber: 123456789n,
      policyOid,
      includeCertificates: true,
      includeTsaName: true,
      now,
    });
    const tokenFile = writeFiles(dir, { "token.der": token })["token.der"];
    const verified = openssl(["ts", "-verify", "-data", files["document.bin"], "-token_in", "-in", tokenFile, "-CAfile", files["root.pem"]]);
    expect(verified).toContain("Verification: OK");
    const text = openssl(["ts", "-reply", "-token_in", "-in", tokenFile, "-text"]);
    expect(text).toContain("Time stamp: Mar  4 05:06:07 2026 GMT");
    expect(text).toContain("Serial number: 0x075BCD15");
    expect(text).toContain("TSA: DirName:/C=PE/O=FirmaViva/CN=FirmaViva TSA\n");
    const validator = spawnSync(VALIDATE_TSR, [tokenFile, "--token", "--data", files["document.bin"], "--ca", files["root.pem"]], { encoding: "utf8" });
    expect(validator.stdout + validator.stderr).toContain("validate-tsr: PASS");

    const tstInfo = readTimeStampToken(token);
    expect(tstInfo).toMatchObject({ policyOid, serialNumber: 123456789n, nonceContentDer: undefined });
    expect(tstInfo.genTime.toISOString()).toBe(now.toISOString());
  });

  it("writes milliseconds without trailing zeros", async () => {
    const token = await createTimeStampToken({
      digest: createHash("sha512").update(document).digest(),
      hashAlgorithm: "SHA-512",
      tsa: tsa(),
      serialNumber: 1n,
      policyOid,
      includeCertificates: false,
      now: new Date("2026-03-04T05:06:07.120Z"),
    });
    expect(Buffer.from(token).includes(Buffer.from("20260304050607.12Z"))).toBe(true);
    const tokenFile = writeFiles(dir, { "token512.der": token })["token512.der"];
    const untrusted = writeFiles(dir, { "chain.pem": toPem(pki.tsa.certificateDer) + toPem(pki.issuing.certificateDer) })["chain.pem"];
    const verified = openssl(["ts", "-verify", "-data", files["document.bin"], "-token_in", "-in", tokenFile, "-CAfile", files["root.pem"], "-untrusted", untrusted]);
    expect(verified).toContain("Verification: OK");
  });

  it.each([
    { name: "a digest of the wrong length", change: { digest: new Uint8Array(20) } },
    { name: "serial number 0", change: { serialNumber: 0n } },
    { name: "a 161-bit serial number", change: { serialNumber: 1n << 160n } },
    { name: "a policy that is not an OID", change: { policyOid: "policy" } },
  ])("rejects $name", async ({ change }) => {
    const attempt = createTimeStampToken({ digest: new Uint8Array(32), hashAlgorithm: "SHA-256", tsa: tsa(), serialNumber: 1n, policyOid, includeCertificates: true, ...change });
    await expect(attempt).rejects.toSatisfy((error) => isPkiError(error, "INVALID_INPUT"));
  });
});
