import { beforeAll, describe, expect, test } from "vitest";
import { createPkiHierarchy, type PkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { createCertificate } from "@/lib/pki/create-certificate";
import type { CertificateWithKey } from "@/lib/pki/issued-certificate";
import { x509 } from "@/lib/pki/x509-provider";
import { checkCertificateChain, type ChainPurpose } from "./check-certificate-chain";

const hour = 3_600_000;
const flags = x509.KeyUsageFlags;
const TIME_STAMPING = "1.3.6.1.5.5.7.3.8";
let pki: PkiHierarchy;

beforeAll(async () => {
  pki = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "https://crl.example.test" });
}, 60_000);

const issue = (issuer: CertificateWithKey, name: string, extensions: x509.Extension[]) =>
  createCertificate({ subject: [{ CN: [name] }], issuer, notBefore: new Date(Date.now() - hour), notAfter: new Date(Date.now() + hour), extensions, crlBaseUrl: "https://crl.example.test" });

const signing = () => [new x509.BasicConstraintsExtension(false, undefined, true), new x509.KeyUsagesExtension(flags.digitalSignature | flags.nonRepudiation, true)];

/** The chain of `leaf` through `intermediates` (leaf's issuer first) to our root, judged now. */
async function judge(leaf: Uint8Array, intermediates: Uint8Array[], purpose: ChainPurpose = "signing") {
  const material = { certificatesDer: [...intermediates, pki.issuing.certificateDer], crlsDer: [], ocspsDer: [], anchorsDer: [pki.root.certificateDer] };
  return checkCertificateChain(leaf, material, new Date(), purpose);
}

describe("checkCertificateChain judges each certificate's purpose by its extensions (RFC 5280 4.2.1.3, 4.2.1.9, 4.2.1.12)", () => {
  test("a signer certificate whose key usage allows signing: trusted; one without the extension: trusted too", async () => {
    expect((await judge((await issue(pki.issuing, "Signer", signing())).certificateDer, [])).status).toBe("trusted");
    expect((await judge((await issue(pki.issuing, "No usage", [])).certificateDer, [])).status).toBe("trusted");
  });

  test("a key usage without digitalSignature or nonRepudiation may not sign", async () => {
    const leaf = await issue(pki.issuing, "Encryption only", [new x509.KeyUsagesExtension(flags.keyEncipherment | flags.dataEncipherment, true)]);
    expect(await judge(leaf.certificateDer, [])).toMatchObject({ status: "invalid", reason: 'certificate "CN=Encryption only" may not sign (keyUsage)' });
    const nonRepudiation = await issue(pki.issuing, "Non-repudiation", [new x509.KeyUsagesExtension(flags.nonRepudiation, true)]);
    expect((await judge(nonRepudiation.certificateDer, [])).status).toBe("trusted");
  });

  test("a time-stamp's certificate needs the timeStamping purpose", async () => {
    const plain = await issue(pki.issuing, "Not a TSA", signing());
    expect(await judge(plain.certificateDer, [], "time-stamping")).toMatchObject({ status: "invalid", reason: 'certificate "CN=Not a TSA" is not a time-stamping certificate' });
    const other = await issue(pki.issuing, "Client auth", [...signing(), new x509.ExtendedKeyUsageExtension(["1.3.6.1.5.5.7.3.2"], true)]);
    expect((await judge(other.certificateDer, [], "time-stamping")).status).toBe("invalid");
    const tsa = await issue(pki.issuing, "A TSA", [...signing(), new x509.ExtendedKeyUsageExtension([TIME_STAMPING], true)]);
    expect((await judge(tsa.certificateDer, [], "time-stamping")).status).toBe("trusted");
  });

  test("an issuer that is not a CA, or whose key usage lacks keyCertSign, issues nothing we trust", async () => {
    // these CAs are issued by our root: the platform's issuing CA allows no CA below it (see the next test)
    const notCa = await issue(pki.root, "End entity", signing());
    const below = await issue(notCa, "Below an end entity", signing());
    expect(await judge(below.certificateDer, [notCa.certificateDer])).toMatchObject({ status: "invalid", reason: 'certificate "CN=End entity" issues certificates but is not a CA (basicConstraints)' });

    const noConstraints = await issue(pki.root, "No constraints", [new x509.KeyUsagesExtension(flags.keyCertSign | flags.cRLSign, true)]);
    const belowNone = await issue(noConstraints, "Below no constraints", signing());
    expect(await judge(belowNone.certificateDer, [noConstraints.certificateDer])).toMatchObject({ status: "invalid", reason: 'certificate "CN=No constraints" issues certificates but is not a CA (basicConstraints)' });

    const crlOnly = await issue(pki.root, "CRL signer", [new x509.BasicConstraintsExtension(true, undefined, true), new x509.KeyUsagesExtension(flags.cRLSign, true)]);
    const belowCrl = await issue(crlOnly, "Below a CRL signer", signing());
    expect(await judge(belowCrl.certificateDer, [crlOnly.certificateDer])).toMatchObject({ status: "invalid", reason: 'certificate "CN=CRL signer" may not sign certificates (keyUsage)' });

    const ca = await issue(pki.root, "Sub CA", [new x509.BasicConstraintsExtension(true, undefined, true), new x509.KeyUsagesExtension(flags.keyCertSign | flags.cRLSign, true)]);
    const belowCa = await issue(ca, "Below a sub CA", signing());
    const sound = await judge(belowCa.certificateDer, [ca.certificateDer]);
    expect(sound.status).toBe("trusted");
    expect(sound.chainDer).toHaveLength(3);
  });

  test("a CA's pathLenConstraint bounds the CAs below it, not the leaf", async () => {
    const caUsage = () => new x509.KeyUsagesExtension(flags.keyCertSign | flags.cRLSign, true);
    // our issuing CA has pathLenConstraint 0: a leaf below it is sound, a CA below it is one too many
    const belowIssuing = await issue(pki.issuing, "CA below the issuing CA", [new x509.BasicConstraintsExtension(true, undefined, true), caUsage()]);
    const underIt = await issue(belowIssuing, "Leaf two below", signing());
    expect(await judge(underIt.certificateDer, [belowIssuing.certificateDer])).toMatchObject({ status: "invalid", reason: 'path length of "C=PE, O=FirmaViva, CN=FirmaViva Issuing CA (Calidad)" exceeded' });

    const last = await issue(pki.root, "Last CA", [new x509.BasicConstraintsExtension(true, 0, true), caUsage()]);
    const under = await issue(last, "CA under the last", [new x509.BasicConstraintsExtension(true, undefined, true), caUsage()]);
    const leaf = await issue(under, "Too deep", signing());
    expect(await judge(leaf.certificateDer, [under.certificateDer, last.certificateDer])).toMatchObject({ status: "invalid", reason: 'path length of "CN=Last CA" exceeded' });
    expect((await judge((await issue(last, "Right below the last", signing())).certificateDer, [last.certificateDer])).status).toBe("trusted");
    // the same depth under a CA that allows one more is sound
    const roomy = await issue(pki.root, "Roomy CA", [new x509.BasicConstraintsExtension(true, 1, true), caUsage()]);
    const underRoomy = await issue(roomy, "CA under the roomy", [new x509.BasicConstraintsExtension(true, undefined, true), caUsage()]);
    const fine = await issue(underRoomy, "Deep enough", signing());
    expect((await judge(fine.certificateDer, [underRoomy.certificateDer, roomy.certificateDer])).status).toBe("trusted");
  });

  test("a self-issued certificate (a CA's key rollover) does not count against the path length", async () => {
    const caExtensions = (pathLength?: number) => [new x509.BasicConstraintsExtension(true, pathLength, true), new x509.KeyUsagesExtension(flags.keyCertSign | flags.cRLSign, true)];
    const oldKey = await issue(pki.root, "Rollover CA", caExtensions(0));
    const newKey = await issue(oldKey, "Rollover CA", caExtensions(0));
    const leaf = await issue(newKey, "Signed with the new key", signing());
    const judged = await judge(leaf.certificateDer, [newKey.certificateDer, oldKey.certificateDer]);
    expect(judged.status).toBe("trusted");
    expect(judged.chainDer).toHaveLength(4);
  });
});
