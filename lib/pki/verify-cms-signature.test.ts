import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { isPkiError } from "@/lib/pki/errors";
import { createPkiHierarchy, type PkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { signCadesDetached } from "@/lib/pki/sign-cms-detached";
import { makeTempDir, openssl } from "@/lib/pki/testing/openssl-cli";
import { verifyCmsSignature } from "@/lib/pki/verify-cms-signature";

describe("verifyCmsSignature", () => {
  let pki: PkiHierarchy;
  const content = Buffer.from("signed content");
  beforeAll(async () => {
    pki = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "https://crl.example.test" });
  });

  it("accepts our detached CMS and names the signer", async () => {
    const cms = await signCadesDetached({ digest: createHash("sha256").update(content).digest(), signer: { ...pki.tsa, chainDer: [pki.issuing.certificateDer] } });
    expect(Buffer.from(verifyCmsSignature(cms, content).signerCertificateDer).equals(Buffer.from(pki.tsa.certificateDer))).toBe(true);
    expect(() => verifyCmsSignature(cms, Buffer.from("other content"))).toThrow(/messageDigest/);
    const tampered = Uint8Array.from(cms);
    tampered[tampered.length - 1]! ^= 1;
    let caught: unknown;
    try {
      verifyCmsSignature(tampered, content);
    } catch (error) {
      caught = error;
    }
    expect(isPkiError(caught, "INVALID_CMS")).toBe(true);
  });

  it("accepts attached and detached RSA CMS made by openssl (an independent producer)", () => {
    const dir = makeTempDir("pki-verify-cms");
    const [key, certificate, data] = ["key.pem", "cert.pem", "data.bin"].map((name) => path.join(dir, name)) as [string, string, string];
    fs.writeFileSync(data, content);
    openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-subj", "/CN=openssl signer", "-days", "1"]);
    const sign = (extra: string[]) =>
      new Uint8Array(execFileSync("openssl", ["cms", "-sign", "-binary", "-outform", "DER", "-md", "sha256", "-signer", certificate, "-inkey", key, "-in", data, ...extra]));
    expect(verifyCmsSignature(sign([]), content).signerCertificateDer.length).toBeGreaterThan(0);
    expect(verifyCmsSignature(sign(["-nodetach"])).signerCertificateDer.length).toBeGreaterThan(0);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
