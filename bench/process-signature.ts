// `npx tsx bench/process-signature.ts`: CPU of the worker task of a last signer's process signature
// (produce-process-signature.ts: stamp, CMS with its time-stamp, DSS, document time-stamp, derived
// level), in this process, each with a freshly issued signer certificate as a process signature has;
// and the derived level alone on those outputs. `ROUNDS` (default 60). Prints figures only.
import { readFileSync } from "node:fs";
import { createPkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { issueSignerCertificate } from "@/lib/pki/issue-certificate";
import { buildCrl } from "@/lib/pki/build-crl";
import { createTimeStampToken } from "@/lib/tsa/create-time-stamp-token";
import { produceProcessSignature } from "@/lib/signers/produce-process-signature";
import { drawStamp } from "@/lib/stamp/draw-stamp";
import { recordStages } from "@/lib/runtime/request-timing";
import { fixturePath } from "@/test/fixtures-dir";

async function main() {
  const pki = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "https://crl.example.test" });
  const now = new Date();
  const window = { revoked: [], crlNumber: 1n, thisUpdate: now, nextUpdate: new Date(now.getTime() + 3_600_000) };
  const crls = [await buildCrl(pki.issuing, window), await buildCrl(pki.root, window)];
  const original = new Uint8Array(readFileSync(fixturePath("pdfs/valid/libreoffice70-tiny.pdf")));
  const tsa = { ...pki.tsa, chainDer: [pki.issuing.certificateDer] };
  let serial = 0n;
  const timestamp = (digest: Uint8Array, includeCertificates: boolean) => createTimeStampToken({ digest, hashAlgorithm: "SHA-256", tsa, serialNumber: ++serial, policyOid: "1.3.6.1.4.1.99999.1.1", includeCertificates });
  const rounds = Number(process.env.ROUNDS ?? 60);
  // one fresh certificate per signature, issued before the measured loop (the `certificate` stage is bench/issue-certificate.ts)
  const signers = await Promise.all(Array.from({ length: rounds + 5 }, (_, i) => issueSignerCertificate(pki.issuing, { givenNames: "José", lastNames: `Pérez ${i}`, nationality: "PER", idType: "DNI", idNumber: String(40000000 + i), validityMinutes: 60 * 24 * 365, crlBaseUrl: "https://crl.example.test" })));
  const stampData = (i: number) => ({ names: "José", lastNames: `Pérez ${i}`, personIdType: "DNI", personId: String(40000000 + i), nationality: "PER", signType: "digital" as const, txToken: "ABCDEFGHIJ0123456789", signedAt: new Date(), environment: "quality" as const, verifyUrl: "https://example.test/verify" });
  const drawn = await drawStamp({ data: stampData(0), qr: null, size: 1, orientation: "horizontal" });
  const sign = (i: number) => {
    const agent = signers[i];
    const validation = { certificates: [agent.certificateDer, pki.issuing.certificateDer, pki.root.certificateDer, pki.tsa.certificateDer], crls };
    return produceProcessSignature(
      {
        original,
        stamp: { data: stampData(i), size: 1, orientation: "horizontal" },
        slot: { x: 20, y: 20, width: drawn.width, height: drawn.height },
        pageIndex: 0,
        signer: { certificateDer: agent.certificateDer, privateKey: agent.privateKey, chainDer: [pki.issuing.certificateDer] },
        signerName: "José Pérez",
        reason: "Firma del proceso",
        signedAt: new Date(),
        validation,
        anchorsDer: [pki.root.certificateDer],
        archive: true,
      },
      { timestamp: (digest) => timestamp(digest, false), documentTimestamp: (digest) => timestamp(digest, true) },
    );
  };
  for (let i = 0; i < 5; i++) await sign(i);
  process.env.SERVER_TIMING = "1";
  const totals = new Map<string, number>();
  const cpu0 = process.cpuUsage();
  let level;
  for (let i = 5; i < rounds + 5; i++) {
    const { result, stages } = await recordStages(() => sign(i));
    level = `${result.level}${result.archived ? " + document time-stamp" : ""}`;
    for (const [stage, ms] of Object.entries(stages)) totals.set(stage, (totals.get(stage) ?? 0) + ms);
  }
  const cpu = process.cpuUsage(cpu0);
  console.log(`process signature (worker task, fresh certificate): ${((cpu.user + cpu.system) / 1000 / rounds).toFixed(2)} ms CPU per signature, ${rounds} rounds -> ${level}`);
  for (const [stage, ms] of totals) console.log(`  ${stage.padEnd(12)} ${(ms / rounds).toFixed(2)} ms wall (mean)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
