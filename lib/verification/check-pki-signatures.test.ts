import { beforeAll, describe, expect, test } from "vitest";
import { buildCrl } from "@/lib/pki/build-crl";
import { createPkiHierarchy, type PkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { issueSignerCertificate } from "@/lib/pki/issue-certificate";
import type { IssuedCertificate } from "@/lib/pki/issued-certificate";
import { createPublicKey, KeyObject } from "node:crypto";
import { BoundedCache, isCertificateSignedBy, isCrlSignedBy, readCertificate, readCertificatePublicKey, readCrl } from "@/lib/pki/check-pki-signatures";
import { checkCertificateChain } from "./check-certificate-chain";
import { findRevocationStatus } from "./find-revocation-status";

const hour = 3_600_000;
const person = { givenNames: "Ana", lastNames: "Rojas Díaz", idType: "DNI" as const, nationality: "PER", idNumber: "45493496", validityMinutes: 60, crlBaseUrl: "http://127.0.0.1:9/pki" };

// Two hierarchies with the very same names (root, issuing CA, TSA) and different keys: the second
// is what an attacker builds to pass for ours.
let genuine: PkiHierarchy;
let impostor: PkiHierarchy;
let signer: IssuedCertificate;
let forgedSigner: IssuedCertificate;

beforeAll(async () => {
  genuine = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "http://127.0.0.1:9/pki" });
  impostor = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "http://127.0.0.1:9/pki" });
  signer = await issueSignerCertificate(genuine.issuing, person);
  forgedSigner = await issueSignerCertificate(impostor.issuing, person);
}, 60_000);

const crlOf = (issuer: IssuedCertificate, revoked: IssuedCertificate[] = []) =>
  buildCrl(issuer, { revoked: revoked.map((c) => ({ serialNumberHex: readCertificate(c.certificateDer).serialNumber, revokedAt: new Date(Date.now() - hour) })), crlNumber: 1n, thisUpdate: new Date(), nextUpdate: new Date(Date.now() + 24 * hour) });

describe("remembered signature checks are keyed by the exact certificates and CRLs, never by their names", () => {
  test("the impostor hierarchy really has the same names", () => {
    for (const level of ["root", "issuing", "tsa"] as const) {
      expect(readCertificate(impostor[level].certificateDer).subject).toBe(readCertificate(genuine[level].certificateDer).subject);
      expect(readCertificate(impostor[level].certificateDer).issuer).toBe(readCertificate(genuine[level].certificateDer).issuer);
    }
    expect(readCertificate(forgedSigner.certificateDer).subject).toBe(readCertificate(signer.certificateDer).subject);
  });

  test("a certificate verified once with its issuer does not vouch for a forged one with the same names, either way round", async () => {
    const issuing = readCertificate(genuine.issuing.certificateDer);
    const forgedIssuing = readCertificate(impostor.issuing.certificateDer);
    const leaf = readCertificate(signer.certificateDer);
    const forgedLeaf = readCertificate(forgedSigner.certificateDer);
    for (let round = 0; round < 2; round++) {
      expect(await isCertificateSignedBy(leaf, issuing)).toBe(true);
      expect(await isCertificateSignedBy(forgedLeaf, issuing)).toBe(false);
      expect(await isCertificateSignedBy(leaf, forgedIssuing)).toBe(false);
      expect(await isCertificateSignedBy(forgedLeaf, forgedIssuing)).toBe(true);
      expect(await isCertificateSignedBy(issuing, readCertificate(genuine.root.certificateDer))).toBe(true);
      expect(await isCertificateSignedBy(forgedIssuing, readCertificate(genuine.root.certificateDer))).toBe(false);
    }
  });

  test("a CRL verified once with its issuer does not vouch for a forged CRL of the same issuer name, either way round", async () => {
    const issuing = readCertificate(genuine.issuing.certificateDer);
    const forgedIssuing = readCertificate(impostor.issuing.certificateDer);
    const crl = readCrl(await crlOf(genuine.issuing));
    const forgedCrl = readCrl(await crlOf(impostor.issuing, [signer]));
    expect(forgedCrl.issuer).toBe(crl.issuer);
    for (let round = 0; round < 2; round++) {
      expect(await isCrlSignedBy(crl, issuing)).toBe(true);
      expect(await isCrlSignedBy(forgedCrl, issuing)).toBe(false);
      expect(await isCrlSignedBy(crl, forgedIssuing)).toBe(false);
      expect(await isCrlSignedBy(forgedCrl, forgedIssuing)).toBe(true);
    }
  });

  test("through the verifier: after the genuine chain and CRL were judged, the forged ones with the same names still fail", async () => {
    const anchorsDer = [genuine.root.certificateDer];
    const crl = await crlOf(genuine.issuing);
    const material = { certificatesDer: [genuine.issuing.certificateDer], crlsDer: [crl, await crlOf(genuine.root)], ocspsDer: [], anchorsDer };
    const genuineChain = await checkCertificateChain(signer.certificateDer, material, new Date(), "signing");
    expect(genuineChain).toMatchObject({ status: "trusted", revocation: "good" });

    // the forged leaf, offered with the genuine and the forged issuing CA: no path to our root
    const forged = await checkCertificateChain(forgedSigner.certificateDer, { ...material, certificatesDer: [genuine.issuing.certificateDer, impostor.issuing.certificateDer] }, new Date(), "signing");
    expect(forged.status).toBe("untrusted");
    // the genuine leaf through the forged issuing CA (same name, listed first): it is skipped, the path is still ours
    const through = await checkCertificateChain(signer.certificateDer, { ...material, certificatesDer: [impostor.issuing.certificateDer, genuine.issuing.certificateDer] }, new Date(), "signing");
    expect(through.chainDer.map((der) => Buffer.from(der).toString("hex"))).toEqual([signer, genuine.issuing, genuine.root].map((c) => Buffer.from(c.certificateDer).toString("hex")));

    // a forged CRL of the same issuer name that "revokes" the signer neither counts as revocation data nor revokes
    const chain = [signer, genuine.issuing, genuine.root].map((c) => readCertificate(c.certificateDer));
    const forgedCrl = await crlOf(impostor.issuing, [signer]);
    expect(await findRevocationStatus(chain.slice(0, 2), { certificatesDer: [], crlsDer: [forgedCrl], ocspsDer: [] }, new Date())).toEqual({ status: "unknown" });
    expect(await findRevocationStatus(chain.slice(0, 2), { certificatesDer: [], crlsDer: [crl, forgedCrl], ocspsDer: [] }, new Date())).toEqual({ status: "good" });
    // and a genuine CRL that revokes it still does, though an earlier CRL of the same issuer was remembered as good
    const revoking = await crlOf(genuine.issuing, [signer]);
    expect((await findRevocationStatus(chain.slice(0, 2), { certificatesDer: [], crlsDer: [crl, revoking], ocspsDer: [] }, new Date())).status).toBe("revoked");
  });
});

describe("BoundedCache", () => {
  test("a remembered public key is the key of exactly those certificate bytes: the forged signer with the same names gets its own", () => {
    const key = readCertificatePublicKey(signer.certificateDer);
    expect(readCertificatePublicKey(new Uint8Array(signer.certificateDer))).toBe(key);
    expect(key.equals(createPublicKey(KeyObject.from(signer.privateKey)))).toBe(true);
    const forged = readCertificatePublicKey(forgedSigner.certificateDer);
    expect(forged.equals(key)).toBe(false);
    expect(forged.equals(createPublicKey(KeyObject.from(forgedSigner.privateKey)))).toBe(true);
    expect(() => readCertificatePublicKey(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01]))).toThrow();
  });

  test("keeps at most its entries and bytes, dropping the least recently used first, and refuses oversized items", () => {
    const cache = new BoundedCache<number>(3, 100, 60);
    cache.set("a", 1, 10);
    cache.set("b", 2, 10);
    cache.set("c", 3, 10);
    expect(cache.get("a")).toBe(1);
    cache.set("d", 4, 10);
    expect([cache.get("a"), cache.get("b"), cache.get("c"), cache.get("d")]).toEqual([1, undefined, 3, 4]);
    cache.set("e", 5, 50);
    cache.set("f", 6, 60);
    expect(cache.size).toBeLessThanOrEqual(3);
    expect([cache.get("e"), cache.get("f")]).toEqual([undefined, 6]);
    cache.set("g", 7, 61);
    expect(cache.get("g")).toBeUndefined();
  });
});
