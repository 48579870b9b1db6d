// `npx tsx bench/issue-certificate.ts`: main-thread CPU of issuing one process signer's certificate
// (a fresh P-256 key, the certificate signed by the issuing CA, its PKCS#8), in this process, without
// the server: the `certificate` stage of a process signature. Prints figures only.
import { createPkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { issueSignerCertificate } from "@/lib/pki/issue-certificate";

async function main() {
  const pki = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "https://firma.example.com/api/pki" });
  let count = 0;
  const once = () =>
    issueSignerCertificate(pki.issuing, {
      givenNames: "María José",
      lastNames: `Quispe ${++count}`,
      nationality: "PER",
      idType: "DNI",
      idNumber: String(40000000 + count),
      validityMinutes: 30,
      crlBaseUrl: "https://firma.example.com/api/pki",
      policyOids: ["1.3.6.1.4.1.99999.1.2"],
      organization: "Demo S.A.C.",
    });
  for (let i = 0; i < 200; i++) await once();
  const n = 1000;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let bytes = 0;
  for (let i = 0; i < n; i++) bytes = (await once()).certificateDer.length;
  const cpu = process.cpuUsage(cpu0);
  console.log(`issueSignerCertificate: ${((performance.now() - t0) / n).toFixed(3)} ms wall, ${((cpu.user + cpu.system) / 1000 / n).toFixed(3)} ms CPU per certificate (${n} certificates, ${bytes} bytes each)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
