import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createPkiHierarchy, type PkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { issueSignerCertificate } from "@/lib/pki/issue-certificate";
import { buildCrl } from "@/lib/pki/build-crl";
import { signCadesDetached } from "@/lib/pki/sign-cms-detached";
import { createTimeStampToken } from "@/lib/tsa/create-time-stamp-token";
import { deriveProcessSignatureLevel, levelOfSignatures, storedLevel, type BuiltProcessSignature } from "./derive-process-level";

const sha256 = (data: Uint8Array) => new Uint8Array(createHash("sha256").update(data).digest());

describe("deriveProcessSignatureLevel: a process signature's level from what its request built", () => {
  let pki: PkiHierarchy;
  let other: PkiHierarchy;
  const digest = sha256(new TextEncoder().encode("the signed byte ranges"));
  const archived = sha256(new TextEncoder().encode("the whole file before the document time-stamp"));

  beforeAll(async () => {
    pki = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "https://crl.example.test" });
    other = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "https://crl.other.test" });
  });

  const token = (hierarchy: PkiHierarchy, over: Uint8Array, includeCertificates: boolean) =>
    createTimeStampToken({ digest: over, hashAlgorithm: "SHA-256", tsa: { ...hierarchy.tsa, chainDer: [hierarchy.issuing.certificateDer] }, serialNumber: 9n, policyOid: "1.3.6.1.4.1.99999.1.1", includeCertificates });

  const built = async (documentTimeStamp?: "genuine" | "other bytes" | "untrusted TSA"): Promise<BuiltProcessSignature> => {
    const issued = await issueSignerCertificate(pki.issuing, { givenNames: "Rosa", lastNames: "Mamani", nationality: "PER", idType: "DNI", idNumber: "22222222", validityMinutes: 15, crlBaseUrl: "https://crl.example.test" });
    const signer = { certificateDer: issued.certificateDer, privateKey: issued.privateKey, chainDer: [pki.issuing.certificateDer] };
    const cmsDer = await signCadesDetached({ digest, signer, signatureTimestamp: async (value) => token(pki, sha256(value), false) });
    const now = new Date();
    const window = { thisUpdate: now, nextUpdate: new Date(now.getTime() + 3_600_000) };
    const crls = [await buildCrl(pki.issuing, { revoked: [], crlNumber: 1n, ...window }), await buildCrl(pki.root, { revoked: [], crlNumber: 1n, ...window })];
    const dss = { certificates: [signer.certificateDer, pki.issuing.certificateDer, pki.root.certificateDer, pki.tsa.certificateDer], crls };
    const stamp =
      documentTimeStamp === undefined
        ? undefined
        : { tokenDer: await token(documentTimeStamp === "untrusted TSA" ? other : pki, documentTimeStamp === "other bytes" ? digest : archived, true), sha256: archived };
    return { cmsDer, byteRangeDigest: digest, dss, anchorsDer: [pki.root.certificateDer], documentTimeStamp: stamp };
  };

  it("an earlier signer's signature: B-LT, nothing archived", async () => {
    expect(await deriveProcessSignatureLevel(await built())).toEqual({ level: "B-LT", archived: false });
  });

  it("the last signer's: B-LT, archived by its document time-stamp", async () => {
    expect(await deriveProcessSignatureLevel(await built("genuine"))).toEqual({ level: "B-LT", archived: true });
  });

  it("a document time-stamp over other bytes archives nothing", async () => {
    expect(await deriveProcessSignatureLevel(await built("other bytes"))).toEqual({ level: "B-LT", archived: false });
  });

  it("a document time-stamp from a TSA that chains to no anchor still archives (the verifier asks only for a chain that is not invalid)", async () => {
    // the level judge counts an untrusted document time-stamp; trust is the verifier's status, not the level
    expect((await deriveProcessSignatureLevel(await built("untrusted TSA"))).archived).toBe(true);
  });

  it("a document time-stamp that is not a token archives nothing", async () => {
    const genuine = await built("genuine");
    expect(await deriveProcessSignatureLevel({ ...genuine, documentTimeStamp: { tokenDer: new Uint8Array([0x30, 0x00]), sha256: archived } })).toEqual({ level: "B-LT", archived: false });
  });
});

describe("levelOfSignatures: a file's process signatures once one more is added", () => {
  it.each([
    ["the first signature, not archived", undefined, { level: "B-LT", archived: false }, "B-LT", "B-LT"],
    ["the last of two, archived", "B-LT", { level: "B-LT", archived: true }, "B-LT", "B-LTA"],
    ["an earlier B-T keeps the file at B-T, archived or not", "B-T", { level: "B-LT", archived: true }, "B-T", "B-T"],
    ["this one at B-T", "B-LT", { level: "B-T", archived: true }, "B-T", "B-T"],
    ["an earlier signature without a level (or none recorded): no level derived", null, { level: "B-LT", archived: true }, null, null],
    ["this one without a level", "B-LT", { level: null, archived: true }, null, null],
  ] as const)("%s", (_, earlier, own, beforeArchive, file) => {
    expect(levelOfSignatures(earlier, own)).toEqual({ beforeArchive, file });
  });

  it("reads only a level from the column", () => {
    expect(storedLevel("B-LT")).toBe("B-LT");
    expect(storedLevel("B-XL")).toBeNull();
    expect(storedLevel(null)).toBeNull();
  });
});
