// `npx tsx bench/level-derivation.ts`: CPU time of the signPDF level derived from what the request
// built (derive-stamp-level.ts) against a full verification of the same output, warm, in one thread.
// Prints figures; asserts nothing about speed.
import { readFileSync } from "node:fs";
import { createPkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { issueSignerCertificate } from "@/lib/pki/issue-certificate";
import { buildCrl } from "@/lib/pki/build-crl";
import { createTimeStampToken } from "@/lib/tsa/create-time-stamp-token";
import { verifyPdfSignatures } from "@/lib/verification/verify-pdf-signatures";
import { ZSignPdfFields } from "@/lib/stamp-signing/schemas";
import { deriveStampLevel } from "@/lib/stamp-signing/derive-stamp-level";
import { produceStampedPdf } from "@/lib/stamp-signing/produce-stamped-pdf";
import { finishLongTermValidation } from "@/lib/pdf/add-document-timestamp";
import { readSignedData, readTimeStampToken } from "@/lib/pki/read-signed-data";
import { readCertificate } from "@/lib/pki/check-pki-signatures";
import { readTstInfo } from "@/lib/tsa/read-tst-info";
import { fixturePath } from "@/test/fixtures-dir";

async function main() {
  const pki = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "https://crl.example.test" });
  const agent = await issueSignerCertificate(pki.issuing, { givenNames: "José", lastNames: "Pérez", nationality: "PER", idType: "DNI", idNumber: "12345678", validityMinutes: 15, crlBaseUrl: "https://crl.example.test" });
  const signer = { certificateDer: agent.certificateDer, privateKey: agent.privateKey, chainDer: [pki.issuing.certificateDer] };
  const now = new Date();
  const window = { revoked: [], crlNumber: 1n, thisUpdate: now, nextUpdate: new Date(now.getTime() + 3_600_000) };
  const validation = { certificates: [agent.certificateDer, pki.issuing.certificateDer, pki.root.certificateDer, pki.tsa.certificateDer], crls: [await buildCrl(pki.issuing, window), await buildCrl(pki.root, window)], anchorsDer: [pki.root.certificateDer] };
  const pdf = new Uint8Array(readFileSync(fixturePath("pdfs/valid/libreoffice70-tiny.pdf")));
  const timestamp = (digest: Uint8Array) => createTimeStampToken({ digest, hashAlgorithm: "SHA-256", tsa: { ...pki.tsa, chainDer: [pki.issuing.certificateDer] }, serialNumber: 1n, policyOid: "1.3.6.1.4.1.99999.1.1", includeCertificates: false });
  const fields = ZSignPdfFields.parse({ names: "José", last_names: "Pérez", person_id: "12345678" });
  const produced = await produceStampedPdf(pdf, undefined, fields, { placement: null }, { signer, timeStamper: timestamp, finish: (signed) => finishLongTermValidation(signed, validation), txToken: "ABCDEFGHIJ0123456789", environment: "quality", verifyUrl: "https://example.test/v", signedAt: new Date() });
  const rounds = Number(process.env.ROUNDS ?? 40);
  const measure = async (name: string, run: () => Promise<unknown>) => {
    for (let i = 0; i < 5; i++) await run();
    const cpu = process.cpuUsage();
    for (let i = 0; i < rounds; i++) await run();
    const used = process.cpuUsage(cpu);
    console.log(`${name.padEnd(36)} ${((used.user + used.system) / 1000 / rounds).toFixed(2)} ms CPU per output -> ${JSON.stringify(await run())}`);
  };
  await measure("derived (derive-stamp-level)", () => deriveStampLevel({ ...produced.signature, dss: validation, anchorsDer: validation.anchorsDer }));
  // the CMS reading alone, as the level reads it: our CMS, then its time-stamp token (from the CMS's tree) and TSTInfo
  await measure("read CMS + token (readSignedData)", async () => {
    const cms = readSignedData(produced.signature.cmsDer, { readCertificate });
    return readTstInfo(readTimeStampToken(cms, 0, { readCertificate })).hashAlgorithmOid;
  });
  // as before issue 40: the token's bytes parsed a second time on their own (without the toBER re-encoding it also paid)
  await measure("read CMS + token parsed again", async () => {
    const cms = readSignedData(produced.signature.cmsDer, { readCertificate });
    return readTstInfo(readSignedData(cms.timeStampTokenDer!, { readCertificate })).hashAlgorithmOid;
  });
  await measure("full verification (verify-pdf)", async () => (await verifyPdfSignatures(produced.pdf, validation.anchorsDer)).signatures.at(-1)?.level);
}

void main();
