// Signatures per second with the platform keys in a SoftHSM2 token (PKCS11_MODULE) against the same
// keys in memory, on the same machine in the same run. Not a test: it prints figures, asserts nothing.
// usage: npx tsx bench/hsm-signing.ts [seconds per figure, default 5]
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { TSA_POLICY_OID } from "@/lib/certificates/time-stamp-authority";
import { signPdf } from "@/lib/pdf/sign-pdf";
import { createPkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import type { CertificateWithKey } from "@/lib/pki/issued-certificate";
import { issueAgentCertificate } from "@/lib/pki/issue-certificate";
import { openPkcs11Token } from "@/lib/pki/pkcs11-token";
import { prepareCmsSigner } from "@/lib/pki/prepare-cms-signer";
import { signCadesDetached } from "@/lib/pki/sign-cms-detached";
import { registerTokenSigning } from "@/lib/pki/signing-key";
import { createSoftHsmToken, SOFTHSM_MODULE } from "@/lib/pki/testing/softhsm-token";
import { createTimeStampToken } from "@/lib/tsa/create-time-stamp-token";

const seconds = Number(process.argv[2] ?? 5);
const contract = new Uint8Array(readFileSync(path.join(__dirname, "..", "..", "shared", "fixtures", "pdfs", "valid", "libreoffice74-contrato-a4.pdf")));
const crlBaseUrl = "http://localhost:3000/api/pki/crl";

/** Ops per second of each work, interleaved in short rounds so a busy neighbour slows both alike. */
async function rates(works: [() => Promise<unknown>, () => Promise<unknown>]): Promise<[number, number]> {
  for (const work of works) for (let i = 0; i < 20; i++) await work(); // warm-up: JIT, caches, token handles
  const counts = [0, 0];
  const elapsed = [0, 0];
  const rounds = Math.max(2, Math.round(seconds * 4));
  for (let round = 0; round < rounds; round++) {
    for (const [index, work] of works.entries()) {
      const started = performance.now();
      while (performance.now() - started < (seconds * 1000) / rounds) {
        await work();
        counts[index]++;
      }
      elapsed[index] += performance.now() - started;
    }
  }
  return [(counts[0] / elapsed[0]) * 1000, (counts[1] / elapsed[1]) * 1000];
}

/** The three operations with one agent, TSA and issuing certificate: what a stamp signature costs in keys. */
function operations(agent: CertificateWithKey, tsa: CertificateWithKey, issuingDer: Uint8Array) {
  const signer = prepareCmsSigner({ certificateDer: agent.certificateDer, privateKey: agent.privateKey, chainDer: [issuingDer] });
  const tsaSigner = { certificateDer: tsa.certificateDer, privateKey: tsa.privateKey, chainDer: [issuingDer] };
  let serial = 1n;
  const tsr = (digest: Uint8Array) =>
    createTimeStampToken({ digest, hashAlgorithm: "SHA-256", tsa: tsaSigner, serialNumber: serial++, policyOid: TSA_POLICY_OID, includeCertificates: false });
  return {
    "CMS sign/s (B-B)": () => signCadesDetached({ digest: randomBytes(32), signer }),
    "tsr/s (RFC 3161 token)": () => tsr(randomBytes(32)),
    "PDF sign/s (B-T, 1-page contract)": () =>
      signPdf(contract, { sign: (digest) => signCadesDetached({ digest, signer, signatureTimestamp: (value) => tsr(new Uint8Array(createHash("sha256").update(value).digest())) }) }),
  };
}

async function main() {
  const softHsm = createSoftHsmToken({ label: "firmaviva-bench" });
  process.env.SOFTHSM2_CONF = softHsm.env.SOFTHSM2_CONF;
  try {
    const token = await openPkcs11Token({ modulePath: SOFTHSM_MODULE, tokenLabel: "firmaviva-bench", pin: softHsm.env.PKCS11_PIN });
    registerTokenSigning((label, data) => token.sign(label, data));
    let n = 0;
    const maker = async () => token.generateKey(`bench-${++n}`);

    const memory = await createPkiHierarchy({ environment: "quality", crlBaseUrl });
    const memoryAgent = await issueAgentCertificate(memory.issuing, { organizationName: "Bench SAC", domain: "bench.pe", crlBaseUrl });
    const inToken = await createPkiHierarchy({ environment: "quality", crlBaseUrl }, maker);
    const tokenAgent = await issueAgentCertificate(inToken.issuing, { organizationName: "Bench SAC", domain: "bench.pe", crlBaseUrl }, maker);

    const inMemory = operations(memoryAgent, memory.tsa, memory.issuing.certificateDer);
    const softhsm = operations(tokenAgent, inToken.tsa, inToken.issuing.certificateDer);
    console.log(`ECDSA P-256, one thread, ${seconds} s per figure and key store, interleaved (SoftHSM2 ${SOFTHSM_MODULE})`);
    console.log(`${"".padEnd(36)}${"in memory".padStart(12)}${"SoftHSM2".padStart(12)}${"ratio".padStart(8)}`);
    for (const name of Object.keys(inMemory) as (keyof typeof inMemory)[]) {
      const [memoryRate, tokenRate] = await rates([inMemory[name], softhsm[name]]);
      console.log(`${name.padEnd(36)}${memoryRate.toFixed(0).padStart(12)}${tokenRate.toFixed(0).padStart(12)}${(tokenRate / memoryRate).toFixed(2).padStart(8)}`);
    }
  } finally {
    softHsm.remove();
  }
}

void main();
