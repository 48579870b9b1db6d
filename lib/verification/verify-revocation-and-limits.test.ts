import { beforeAll, describe, expect, test } from "vitest";
import { PdfError } from "@/lib/pdf/errors";
import { buildCrl } from "@/lib/pki/build-crl";
import { readX509Certificate } from "@/lib/pki/x509-provider";
import { appendRevision } from "./testing/forge-pdf";
import { makeGenuineOutputs, type GenuineOutputs } from "./testing/make-genuine-outputs";
import { verifyPdfSignatures } from "./verify-pdf-signatures";

let genuine: GenuineOutputs;
const hour = 3_600_000;

beforeAll(async () => {
  genuine = await makeGenuineOutputs();
}, 120_000);

async function crlRevoking(certificateDer: Uint8Array | undefined, revokedAt: Date, thisUpdate = new Date()) {
  const revoked = certificateDer ? [{ serialNumberHex: readX509Certificate(certificateDer).serialNumber, revokedAt }] : [];
  return buildCrl(genuine.pki.issuing, { revoked, crlNumber: 2n, thisUpdate, nextUpdate: new Date(Date.now() + 24 * hour) });
}

describe("revocation from the DSS", () => {
  test("a signer certificate revoked before the time-stamped signing time: invalid", async () => {
    const who = await genuine.newSigner();
    const signed = await genuine.signWith(genuine.original, who, { crls: [await crlRevoking(who.certificateDer, new Date(Date.now() - 60_000))] });
    const report = await verifyPdfSignatures(signed, genuine.anchorsDer);
    expect(report.signatures[0]).toMatchObject({ status: "invalid", chain: { status: "invalid", revocation: "revoked" } });
  });

  test("revoked only after the time-stamp proves the signature existed: still valid", async () => {
    const who = await genuine.newSigner();
    const signed = await genuine.signWith(genuine.original, who, { crls: [await crlRevoking(who.certificateDer, new Date(Date.now() + hour))] });
    const report = await verifyPdfSignatures(signed, genuine.anchorsDer);
    expect(report.signatures[0]).toMatchObject({ status: "valid", chain: { revocation: "good" } });
  });

  test("no time-stamp and a back-dated /M: revocation is judged now, so a revoked key cannot sign into the past", async () => {
    const who = await genuine.newSigner();
    const signed = await genuine.signWith(genuine.original, who, {
      crls: [await crlRevoking(who.certificateDer, new Date(Date.now() - 1_000))],
      timestamp: false,
      signingTime: new Date(Date.now() - 30_000),
    });
    const report = await verifyPdfSignatures(signed, genuine.anchorsDer);
    expect(report.signatures[0].chain.validatedAt?.source).toBe("claimed");
    expect(report.signatures[0]).toMatchObject({ status: "invalid", chain: { revocation: "revoked" } });
  });

  test("a CRL issued before the certificate existed does not count as coverage (the level stays B-T)", async () => {
    // issued an hour ago, while the certificate is back-dated a minute at most
    const early = await crlRevoking(undefined, new Date(), new Date(Date.now() - hour));
    const who = await genuine.newSigner();
    const signed = await genuine.signWith(genuine.original, who, { crls: [early] });
    const report = await verifyPdfSignatures(signed, genuine.anchorsDer);
    expect(report.signatures[0]).toMatchObject({ status: "valid", level: "B-T", chain: { revocation: "unknown" } });
  });

  test("a CRL not signed by the issuer is ignored", async () => {
    const who = await genuine.newSigner();
    const forgedCrl = await buildCrl(genuine.pki.tsa, { revoked: [], crlNumber: 9n, thisUpdate: new Date(), nextUpdate: new Date(Date.now() + hour) }).catch(() => undefined);
    const signed = await genuine.signWith(genuine.original, who, { crls: forgedCrl ? [forgedCrl] : [] });
    const report = await verifyPdfSignatures(signed, genuine.anchorsDer);
    expect(report.signatures[0].chain.revocation).toBe("unknown");
    expect(report.signatures[0].level).toBe("B-T");
  });
});

describe("bounded work", () => {
  test("a file with more revisions than we compare is refused with a clear error, quickly", async () => {
    let bytes = genuine.stamp;
    for (let i = 0; i < 260; i++) bytes = appendRevision(bytes, []);
    const started = Date.now();
    const error = await verifyPdfSignatures(bytes, genuine.anchorsDer).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PdfError);
    expect((error as PdfError).code).toBe("PDF_TOO_COMPLEX");
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});
