import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPkiError } from "@/lib/pki/errors";
import { createPkiHierarchy, type PkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { importPkcs12 } from "@/lib/pki/import-pkcs12";
import { importPrivateKey } from "@/lib/pki/import-private-key";
import { issueSignerCertificate } from "@/lib/pki/issue-certificate";
import type { IssuedCertificate } from "@/lib/pki/issued-certificate";
import { prepareCmsSigner } from "@/lib/pki/prepare-cms-signer";
import { checkTimeStampToken, signatureValueOf, signCadesDetached } from "@/lib/pki/sign-cms-detached";
import { findDerViolation } from "@/lib/pki/find-der-violation";
import { makeTempDir, openssl, runOpenssl, toPem, writeFiles } from "@/lib/pki/testing/openssl-cli";
import { createTimeStampToken } from "@/lib/tsa/create-time-stamp-token";

const crlBaseUrl = "https://crl.example.test";
const sha256 = (data: Uint8Array) => new Uint8Array(createHash("sha256").update(data).digest());

describe("signCadesDetached", () => {
  let dir: string;
  let pki: PkiHierarchy;
  let signer: IssuedCertificate;
  let files: Record<"root.pem" | "issuing.pem" | "content.bin", string>;
  const content = Buffer.from("%PDF-1.7 pretend byte range contents\n".repeat(100));

  beforeAll(async () => {
    dir = makeTempDir("pki-cms");
    pki = await createPkiHierarchy({ environment: "quality", crlBaseUrl });
    signer = await issueSignerCertificate(pki.issuing, {
      givenNames: "Luis",
      lastNames: "Quispe",
      nationality: "PER",
      idType: "DNI",
      idNumber: "44556677",
      validityMinutes: 15,
      crlBaseUrl,
    });
    files = writeFiles(dir, { "root.pem": toPem(pki.root.certificateDer), "issuing.pem": toPem(pki.issuing.certificateDer), "content.bin": content });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function verifyCms(cms: Uint8Array, caFile: string, name: string): string {
    const cmsFile = writeFiles(dir, { [name]: cms })[name]!;
    return openssl(["cms", "-verify", "-binary", "-inform", "DER", "-in", cmsFile, "-content", files["content.bin"], "-CAfile", caFile, "-purpose", "any", "-out", "/dev/null"]);
  }

  function printCms(cms: Uint8Array): string {
    return openssl(["cms", "-cmsout", "-print", "-inform", "DER"], { input: cms });
  }

  const ecdsaSigner = () => ({ certificateDer: signer.certificateDer, privateKey: signer.privateKey, chainDer: [pki.issuing.certificateDer] });

  it("produces a detached ECDSA CMS that openssl verifies", async () => {
    const cms = await signCadesDetached({ digest: sha256(content), signer: ecdsaSigner() });
    expect(verifyCms(cms, files["root.pem"], "ecdsa.p7s")).toContain("CMS Verification successful");
  });

  it("carries exactly contentType, messageDigest and signing-certificate-v2, and the chain", async () => {
    const cms = await signCadesDetached({ digest: sha256(content), signer: ecdsaSigner() });
    const printed = printCms(cms);
    const signerInfo = printed.slice(printed.indexOf("signerInfos:"));
    const signedAttributes = [...signerInfo.matchAll(/object: (\S+) \(/g)].map((match) => match[1]);
    expect(signedAttributes.sort()).toEqual(["contentType", "id-smime-aa-signingCertificateV2", "messageDigest"]);
    expect(printed).not.toContain("signingTime");
    expect(printed).toMatch(/eContent: <ABSENT>/);
    expect(signerInfo).toMatch(/unsignedAttrs:\s+<ABSENT>/);
    expect(signerInfo).toMatch(/digestAlgorithm:\s+algorithm: sha256 \(2.16.840.1.101.3.4.2.1\)\s+parameter: <ABSENT>/);
    expect(printed.match(/cert_info:/g)).toHaveLength(2);
    expect(printed).toContain("ecdsa-with-SHA256");
  });

  it("fails verification when the content changes", async () => {
    const cms = await signCadesDetached({ digest: sha256(Buffer.from("other content")), signer: ecdsaSigner() });
    const cmsFile = writeFiles(dir, { "tampered.p7s": cms })["tampered.p7s"];
    const result = runOpenssl(["cms", "-verify", "-binary", "-inform", "DER", "-in", cmsFile, "-content", files["content.bin"], "-CAfile", files["root.pem"], "-purpose", "any", "-out", "/dev/null"]);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("CMS Verification failure");
  });

  it("writes DER ECDSA-Sig-Value signatures, not raw r||s", async () => {
    const signature = signatureValueOf(await signCadesDetached({ digest: sha256(content), signer: ecdsaSigner() }));
    expect(signature[0]).toBe(0x30);
    expect(signature[1]).toBe(signature.length - 2);
  });

  it("signs with an RSA key imported from a PKCS#12", async () => {
    const key = path.join(dir, "rsa.key");
    const certificate = path.join(dir, "rsa.pem");
    const p12 = path.join(dir, "rsa.p12");
    openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-subj", "/CN=RSA signer", "-days", "1", "-addext", "keyUsage=critical,digitalSignature,nonRepudiation"]);
    openssl(["pkcs12", "-export", "-inkey", key, "-in", certificate, "-passout", "pass:x", "-out", p12]);
    const imported = await importPkcs12(fs.readFileSync(p12), "x");
    const cms = await signCadesDetached({
      digest: sha256(content),
      signer: { certificateDer: imported.certificateDer, privateKey: await importPrivateKey(imported.pkcs8), chainDer: imported.chainDer },
    });
    expect(verifyCms(cms, certificate, "rsa.p7s")).toContain("CMS Verification successful");
    expect(printCms(cms)).toContain("sha256WithRSAEncryption");
  });

  it("adds a signature time-stamp over the signature value", async () => {
    let stamped: Uint8Array | undefined;
    const cms = await signCadesDetached({
      digest: sha256(content),
      signer: ecdsaSigner(),
      signatureTimestamp: async (signatureValue) => {
        stamped = signatureValue;
        return createTimeStampToken({ digest: sha256(signatureValue), hashAlgorithm: "SHA-256", tsa: { ...pki.tsa, chainDer: [pki.issuing.certificateDer] }, serialNumber: 1n, policyOid: "1.3.6.1.4.1.99999.1.1", includeCertificates: true });
      },
    });
    expect(verifyCms(cms, files["root.pem"], "timestamped.p7s")).toContain("CMS Verification successful");
    expect(printCms(cms)).toContain("id-smime-aa-timeStampToken");
    expect(Buffer.from(signatureValueOf(cms)).equals(Buffer.from(stamped!))).toBe(true);

    // the token must stamp this signature: openssl checks imprint, signature, ESS id and chain
    const tokenFile = writeFiles(dir, { "token.der": await tokenFrom(cms) })["token.der"];
    const verified = openssl(["ts", "-verify", "-digest", Buffer.from(sha256(stamped!)).toString("hex"), "-token_in", "-in", tokenFile, "-CAfile", files["root.pem"], "-untrusted", files["issuing.pem"]]);
    expect(verified).toContain("Verification: OK");
  });

  it("rejects a key that does not belong to the certificate", async () => {
    const attempt = signCadesDetached({ digest: sha256(content), signer: { ...ecdsaSigner(), privateKey: pki.tsa.privateKey } });
    await expect(attempt).rejects.toSatisfy((error) => isPkiError(error, "KEY_CERTIFICATE_MISMATCH"));
  });

  it("rejects a digest that is not SHA-256 sized", async () => {
    await expect(signCadesDetached({ digest: new Uint8Array(20), signer: ecdsaSigner() })).rejects.toSatisfy((error) => isPkiError(error, "INVALID_INPUT"));
  });

  it("signs quickly with a prepared signer (figure printed, not asserted)", async () => {
    const prepared = prepareCmsSigner(ecdsaSigner());
    const digest = sha256(content);
    const count = 300;
    const started = performance.now();
    for (let i = 0; i < count; i++) await signCadesDetached({ digest, signer: prepared });
    const preparedMs = (performance.now() - started) / count;
    const startedRaw = performance.now();
    for (let i = 0; i < count; i++) await signCadesDetached({ digest, signer: ecdsaSigner() });
    const rawMs = (performance.now() - startedRaw) / count;
    console.info(`signCadesDetached ECDSA P-256: ${preparedMs.toFixed(3)} ms prepared, ${rawMs.toFixed(3)} ms from raw input (cached)`);
  });
  describe("the signature time-stamp token it embeds", () => {
    const builtInToken = (includeCertificates: boolean) =>
      createTimeStampToken({ digest: sha256(content), hashAlgorithm: "SHA-256", tsa: { ...pki.tsa, chainDer: [pki.issuing.certificateDer] }, serialNumber: 9n, policyOid: "1.3.6.1.4.1.99999.1.1", includeCertificates });
    const refused = (token: Uint8Array) => {
      try {
        checkTimeStampToken(token);
        return false;
      } catch (error) {
        return isPkiError(error, "INVALID_CMS");
      }
    };

    it("the built-in TSA's tokens are strict DER, so the check never parses them with asn1js", async () => {
      for (const withCertificates of [false, true]) expect(findDerViolation(await builtInToken(withCertificates))).toBeUndefined();
    });

    it("refuses a truncated token, trailing bytes, a token that is not a SEQUENCE and garbage", async () => {
      const token = await builtInToken(false);
      expect(refused(token)).toBe(false);
      expect(refused(token.subarray(0, token.length - 1))).toBe(true);
      expect(refused(new Uint8Array([...token, 0]))).toBe(true);
      expect(refused(new Uint8Array([0x04, ...token.subarray(1)]))).toBe(true);
      expect(refused(new Uint8Array([0x30, 0x84, 0xff, 0xff, 0xff, 0xff, 1, 2, 3]))).toBe(true);
      expect(refused(new Uint8Array(0))).toBe(true);
    });

    it("takes a BER token (indefinite length) as asn1js reads it, as before the DER walk", () => {
      expect(refused(new Uint8Array([0x30, 0x80, 0x02, 0x01, 0x05, 0x00, 0x00]))).toBe(false);
      expect(refused(new Uint8Array([0x30, 0x80, 0x02, 0x01, 0x05]))).toBe(true);
    });
  });
});

/** Extracts the time-stamp token from the first unsigned attribute. */
async function tokenFrom(cms: Uint8Array): Promise<Uint8Array> {
  const asn1js = await import("asn1js");
  const parsed = asn1js.fromBER(cms).result as InstanceType<typeof asn1js.Sequence>;
  const signedData = (parsed.valueBlock.value[1] as InstanceType<typeof asn1js.Constructed>).valueBlock.value[0] as InstanceType<typeof asn1js.Sequence>;
  const signerInfos = signedData.valueBlock.value.at(-1) as InstanceType<typeof asn1js.Set>;
  const signerInfo = signerInfos.valueBlock.value[0] as InstanceType<typeof asn1js.Sequence>;
  const unsigned = signerInfo.valueBlock.value.at(-1) as InstanceType<typeof asn1js.Constructed>;
  const attribute = unsigned.valueBlock.value[0] as InstanceType<typeof asn1js.Sequence>;
  const values = attribute.valueBlock.value[1] as InstanceType<typeof asn1js.Set>;
  return new Uint8Array(values.valueBlock.value[0]!.valueBeforeDecodeView);
}
