import { createHash } from "node:crypto";
import fs from "node:fs";
import { finishLongTermValidation } from "@/lib/pdf/add-document-timestamp";
import { signPdf } from "@/lib/pdf/sign-pdf";
import { makeStampAppearance } from "@/lib/pdf/test-support/make-stamp-appearance";
import { buildCrl } from "@/lib/pki/build-crl";
import { createPkiHierarchy, type PkiHierarchy } from "@/lib/pki/generate-pki-hierarchy";
import { issueSignerCertificate } from "@/lib/pki/issue-certificate";
import type { IssuedCertificate } from "@/lib/pki/issued-certificate";
import { signCadesDetached } from "@/lib/pki/sign-cms-detached";
import { createTimeStampToken } from "@/lib/tsa/create-time-stamp-token";
import { fixturePath } from "@/test/fixtures-dir";

const FIXTURE = fixturePath("pdfs/valid/libreoffice74-contrato-a4.pdf");

/**
 * Files made by our own signing engine with a platform-style PKI (root → issuing CA → signer and
 * TSA), the way the stamp API and the process API make them: a visible stamp signature with DSS
 * (B-LT), the same file signed again, and a two-signer document finished with a document time-stamp
 * (B-LTA). The verifier's attack tests start from these.
 */
export type GenuineOutputs = {
  pki: PkiHierarchy;
  anchorsDer: Uint8Array[];
  original: Uint8Array;
  stamp: Uint8Array;
  signedTwice: Uint8Array;
  twoSignersLta: Uint8Array;
  /** A one-signature file without DSS: the shape before validation data is added. */
  bare: Uint8Array;
  /** Signs any PDF like `stamp` was signed (invisible signature, then DSS). */
  signLongTerm: (pdf: Uint8Array) => Promise<Uint8Array>;
  /** A fresh signer certificate from the issuing CA, and signing with it and chosen CRLs in the DSS. */
  newSigner: () => Promise<IssuedCertificate>;
  signWith: (pdf: Uint8Array, who: IssuedCertificate, options: { crls: Uint8Array[]; timestamp?: boolean; signingTime?: Date }) => Promise<Uint8Array>;
};

let serial = 1n;

export async function makeGenuineOutputs(): Promise<GenuineOutputs> {
  const pki = await createPkiHierarchy({ environment: "quality", crlBaseUrl: "http://127.0.0.1:9/pki" });
  const original = new Uint8Array(fs.readFileSync(FIXTURE));
  const signerA = await person(pki, "Ana", "Rojas Díaz", "45493496");
  const signerB = await person(pki, "Luis", "Quispe Mamani", "10293847");
  // issued after the signer certificates, as an on-demand CRL is
  const crl = await buildCrl(pki.issuing, { revoked: [], crlNumber: 1n, thisUpdate: new Date(), nextUpdate: new Date(Date.now() + 86_400_000) });
  const stamper = (digest: Uint8Array) =>
    createTimeStampToken({ digest, hashAlgorithm: "SHA-256", tsa: { ...pki.tsa, chainDer: [pki.issuing.certificateDer] }, serialNumber: serial++, policyOid: "1.3.6.1.4.1.99999.1", includeCertificates: false });
  const validationData = { certificates: [pki.issuing.certificateDer, pki.tsa.certificateDer, pki.root.certificateDer], crls: [crl] };

  const sign = async (pdf: Uint8Array, who: IssuedCertificate, widget: boolean, { timestamp = true, signingTime = new Date() } = {}) =>
    signPdf(pdf, {
      sign: (digest) =>
        signCadesDetached({ digest, signer: { ...who, chainDer: [pki.issuing.certificateDer] }, signatureTimestamp: timestamp ? (value) => stamper(createHash("sha256").update(value).digest()) : undefined }),
      signingTime,
      reason: "Firma agente · Id TEST",
      widget: widget ? { pageIndex: 0, rect: { x: 50, y: 50, width: 200, height: 70 }, appearance: await makeStampAppearance(200, 70) } : undefined,
    });

  const bare = await sign(original, signerA, true);
  const stamp = await finishLongTermValidation(bare, { ...validationData });
  const signedTwice = await finishLongTermValidation(await sign(stamp, signerB, true), { ...validationData });
  const secondSigner = await sign(await sign(original, signerA, false), signerB, false);
  const twoSignersLta = await finishLongTermValidation(secondSigner, { ...validationData, timestamp: stamper });
  const signLongTerm = async (pdf: Uint8Array) => finishLongTermValidation(await sign(pdf, signerA, false), { ...validationData });
  const signWith: GenuineOutputs["signWith"] = async (pdf, who, { crls, timestamp, signingTime }) =>
    finishLongTermValidation(await sign(pdf, who, false, { timestamp, signingTime }), { ...validationData, crls });
  const newSigner = () => person(pki, "Eva", "Mallqui", "33333333");
  return { pki, anchorsDer: [pki.root.certificateDer, pki.issuing.certificateDer], original, stamp, signedTwice, twoSignersLta, bare, signLongTerm, newSigner, signWith };
}

function person(pki: PkiHierarchy, givenNames: string, lastNames: string, idNumber: string) {
  return issueSignerCertificate(pki.issuing, { givenNames, lastNames, nationality: "PER", idType: "DNI", idNumber, validityMinutes: 10, crlBaseUrl: "http://127.0.0.1:9/pki" });
}
