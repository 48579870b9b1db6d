import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createPkiHierarchy, type PkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { issueSignerCertificate } from "@/lib/pki/issue-certificate";
import { buildCrl, type RevokedCertificate } from "@/lib/pki/build-crl";
import { signCadesDetached } from "@/lib/pki/sign-cms-detached";
import type { CmsSignerInput } from "@/lib/pki/prepare-cms-signer";
import { readX509Certificate } from "@/lib/pki/x509-provider";
import { createTimeStampToken } from "@/lib/tsa/create-time-stamp-token";
import { deriveStampLevel, type BuiltSignature } from "./derive-stamp-level";

const sha256 = (data: Uint8Array) => new Uint8Array(createHash("sha256").update(data).digest());

describe("deriveStampLevel: the level of what this request built", () => {
  let pki: PkiHierarchy;
  let signer: CmsSignerInput;
  const digest = sha256(new TextEncoder().encode("the signed byte ranges"));

  beforeAll(async () => {
    pki = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "https://crl.example.test" });
    const issued = await issueSignerCertificate(pki.issuing, { givenNames: "José", lastNames: "Pérez", nationality: "PER", idType: "DNI", idNumber: "12345678", validityMinutes: 15, crlBaseUrl: "https://crl.example.test" });
    signer = { certificateDer: issued.certificateDer, privateKey: issued.privateKey, chainDer: [pki.issuing.certificateDer] };
  });

  const timestamp = (over: (value: Uint8Array) => Uint8Array = (value) => value) => async (signatureValue: Uint8Array) =>
    createTimeStampToken({ digest: sha256(over(signatureValue)), hashAlgorithm: "SHA-256", tsa: { ...pki.tsa, chainDer: [pki.issuing.certificateDer] }, serialNumber: 7n, policyOid: "1.3.6.1.4.1.99999.1.1", includeCertificates: false });
  const crls = async (revoked: RevokedCertificate[] = []) => {
    const now = new Date();
    const window = { thisUpdate: now, nextUpdate: new Date(now.getTime() + 3_600_000) };
    return [await buildCrl(pki.issuing, { revoked, crlNumber: 1n, ...window }), await buildCrl(pki.root, { revoked: [], crlNumber: 1n, ...window })];
  };
  const built = async (options: { stamped?: boolean; forgedToken?: boolean; crls?: readonly Uint8Array[]; digest?: Uint8Array } = {}): Promise<BuiltSignature> => {
    const cmsDer = await signCadesDetached({
      digest,
      signer,
      signatureTimestamp: options.stamped === false ? undefined : timestamp(options.forgedToken ? (value) => new Uint8Array([...value, 1]) : undefined),
    });
    const certificates = [signer.certificateDer, pki.issuing.certificateDer, pki.root.certificateDer, pki.tsa.certificateDer];
    return { cmsDer, byteRangeDigest: options.digest ?? digest, dss: { certificates, crls: [...(options.crls ?? (await crls()))] }, anchorsDer: [pki.root.certificateDer] };
  };

  it("B-LT when the DSS it wrote covers the signer's and the TSA's chains", async () => {
    expect(await deriveStampLevel(await built())).toBe("B-LT");
  });

  it.each([
    ["B-T without CRLs in the DSS", { crls: [] }, "B-T"],
    ["B-B without a signature time-stamp", { stamped: false }, "B-B"],
    ["no level when the CMS covers other bytes than the ones hashed", { digest: sha256(new TextEncoder().encode("other bytes")) }, null],
    ["no level when the time-stamp covers another value", { forgedToken: true }, null],
  ] as const)("%s", async (_, options, level) => {
    expect(await deriveStampLevel(await built(options))).toBe(level);
  });

  it("no B-LT for a signer its own DSS lists as revoked", async () => {
    const serialNumberHex = readX509Certificate(signer.certificateDer).serialNumber;
    const level = await deriveStampLevel(await built({ crls: await crls([{ serialNumberHex, revokedAt: new Date(Date.now() - 30_000) }]) }));
    expect(level).not.toBe("B-LT");
  });

  it("no level for a CMS that is not one", async () => {
    const genuine = await built();
    expect(await deriveStampLevel({ ...genuine, cmsDer: new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x00]) })).toBeNull();
  });
});
