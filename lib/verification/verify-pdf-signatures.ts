import { createHash, createPublicKey, verify } from "node:crypto";
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFRef, PDFString, type PDFObject } from "pdf-lib";
import { PdfError, invalidPdf } from "@/lib/pdf/errors";
import { asPdfError, openLazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { readFormState } from "@/lib/pdf/read-form-state";
import { verifyCmsSignature } from "@/lib/pki/verify-cms-signature";
import { readX509Certificate } from "@/lib/pki/x509-provider";
import { readTimeStampToken } from "@/lib/tsa/read-time-stamp-response";
import { readSignatureCms, type SignatureCms } from "./read-signature-cms";
import { checkCertificateChain } from "./check-certificate-chain";

const MAX_SIGNATURES = 200;

/** ranges-invalid: the signed ranges leave more than /Contents out (bytes can change unsigned). */
export type IntegrityResult = "intact" | "digest-mismatch" | "ranges-invalid" | "signature-invalid" | "unreadable";

export type SignatureReport = {
  /** "document-timestamp" for /SubFilter /ETSI.RFC3161 (a time stamp over the document, no signer). */
  kind: "signature" | "document-timestamp";
  signer?: string;
  signingTime?: { at: string; source: "cms" | "pdf" | "timestamp" };
  /** Signature time stamp (RFC 3161 token in the unsigned attributes), when there is one. */
  timeStamp?: { at: string; matchesSignature: boolean };
  integrity: IntegrityResult;
  /** Technical reason when the integrity check fails, for support; not translated. */
  detail?: string;
  /** The signer certificate chains to our platform CA. Revocation and validity dates are not judged. */
  trusted: boolean;
  /** The signed byte range does not reach the end of the file: later revisions exist. */
  modifiedAfter: boolean;
  coversWholeDocument: boolean;
};

export type VerificationReport = { fileSize: number; sha256: string; signatures: SignatureReport[] };

/** Digest OIDs a PDF signature may use (SHA-1 only to report old files, never to sign). */
const digestNames: Record<string, string> = {
  "1.3.14.3.2.26": "sha1",
  "2.16.840.1.101.3.4.2.1": "sha256",
  "2.16.840.1.101.3.4.2.2": "sha384",
  "2.16.840.1.101.3.4.2.3": "sha512",
};

/**
 * Reports every signature of an uploaded PDF: who, when, time stamp, integrity of the signed byte
 * ranges, trust in our CA (`trustedCaDer`: root and issuing CA) and whether the file changed after.
 * Refuses unreadable input with a PdfError; a broken signature is reported, not thrown.
 */
export async function verifyPdfSignatures(bytes: Uint8Array, trustedCaDer: Uint8Array[]): Promise<VerificationReport> {
  let dictionaries: PDFDict[];
  try {
    const pdf = openLazyPdf(bytes);
    if (pdf.encrypted) throw new PdfError("ENCRYPTED_PDF", undefined, "El PDF está cifrado; no se pueden verificar sus firmas.");
    const catalogRef = pdf.trailer.get(PDFName.of("Root"));
    const catalog = catalogRef instanceof PDFRef ? pdf.lookupDict(catalogRef) : undefined;
    if (!catalog) throw invalidPdf("trailer /Root is not a catalog");
    dictionaries = readFormState(pdf, catalog).signatures.slice(0, MAX_SIGNATURES);
  } catch (error) {
    throw asPdfError(error);
  }
  const signatures: SignatureReport[] = [];
  for (const dict of dictionaries) signatures.push(await verifyOne(bytes, dict, trustedCaDer));
  // in file order: the earliest revision first
  return { fileSize: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex"), signatures };
}

async function verifyOne(bytes: Uint8Array, dict: PDFDict, trustedCaDer: Uint8Array[]): Promise<SignatureReport> {
  const subFilter = dict.get(PDFName.of("SubFilter"));
  const kind = subFilter === PDFName.of("ETSI.RFC3161") || dict.get(PDFName.of("Type")) === PDFName.of("DocTimeStamp") ? "document-timestamp" : "signature";
  const pdfTime = readPdfDate(dict.get(PDFName.of("M")));
  const range = readByteRange(dict.get(PDFName.of("ByteRange")), bytes);
  const contents = dict.get(PDFName.of("Contents"));
  const base = {
    kind,
    signingTime: pdfTime ? { at: pdfTime.toISOString(), source: "pdf" as const } : undefined,
    trusted: false,
    modifiedAfter: range ? hasBytesAfter(bytes, range.end) : true,
    coversWholeDocument: false,
  } satisfies Partial<SignatureReport>;
  if (!range) return { ...base, integrity: "unreadable", detail: "malformed /ByteRange" };
  if (!(contents instanceof PDFHexString || contents instanceof PDFString)) return { ...base, integrity: "unreadable", detail: "no /Contents" };

  let cms: SignatureCms;
  try {
    cms = readSignatureCms(contents.asBytes());
  } catch (error) {
    return { ...base, integrity: "unreadable", detail: error instanceof Error ? error.message : "unreadable CMS" };
  }
  const signedContent = Buffer.concat([bytes.subarray(range.parts[0][0], range.parts[0][1]), bytes.subarray(range.parts[1][0], range.parts[1][1])]);
  const report: SignatureReport = {
    ...base,
    coversWholeDocument: !base.modifiedAfter && range.gapIsContents,
    signer: cms.signerCommonName,
    signingTime: cms.signingTime ? { at: cms.signingTime.toISOString(), source: "cms" } : base.signingTime,
    timeStamp: cms.timeStampToken ? readSignatureTimeStamp(cms.timeStampToken, cms.signatureValue) : undefined,
    integrity: "intact",
  };
  if (kind === "document-timestamp") {
    const token = safe(() => readTimeStampToken(cms.der));
    if (token) report.signingTime = { at: token.genTime.toISOString(), source: "timestamp" };
  }

  const mismatch = checkDigest(cms, signedContent, kind);
  if (mismatch) return { ...report, integrity: "digest-mismatch", detail: mismatch };
  if (!range.gapIsContents) return { ...report, integrity: "ranges-invalid", detail: "the gap between the byte ranges is not the /Contents string" };
  try {
    // without signed attributes the signature covers the content itself (old PKCS#7 signers)
    const signerCertificateDer = cms.messageDigest ? verifyCmsSignature(cms.der, signedContent).signerCertificateDer : verifyBareSignature(cms, signedContent);
    report.trusted = await checkCertificateChain(signerCertificateDer, cms.certificatesDer, trustedCaDer);
  } catch (error) {
    return { ...report, integrity: "signature-invalid", detail: error instanceof Error ? error.message : "signature does not verify" };
  }
  return report;
}

/** Returns why the signed bytes do not match what the CMS signed, or undefined when they match. */
function checkDigest(cms: SignatureCms, signedContent: Uint8Array, kind: SignatureReport["kind"]): string | undefined {
  if (kind === "document-timestamp") {
    const token = safe(() => readTimeStampToken(cms.der));
    if (!token) return "the document time stamp holds no TSTInfo";
    const name = digestNames[token.hashAlgorithmOid];
    if (!name) return `unsupported digest ${token.hashAlgorithmOid}`;
    return equalBytes(createHash(name).update(signedContent).digest(), token.digest) ? undefined : "the time stamp imprint does not match the byte ranges";
  }
  const name = digestNames[cms.digestAlgorithmOid];
  if (!name) return `unsupported digest ${cms.digestAlgorithmOid}`;
  // adbe.pkcs7.sha1 wraps the SHA-1 of the ranges as eContent; detached CMS signs the ranges themselves
  if (cms.encapsulatedContent) {
    if (!equalBytes(createHash("sha1").update(signedContent).digest(), cms.encapsulatedContent)) return "the encapsulated digest does not match the byte ranges";
    signedContent = cms.encapsulatedContent;
  }
  if (!cms.messageDigest) return undefined;
  return equalBytes(createHash(name).update(signedContent).digest(), cms.messageDigest) ? undefined : "messageDigest does not match the byte ranges";
}

function verifyBareSignature(cms: SignatureCms, content: Uint8Array): Uint8Array {
  if (!cms.signerCertificateDer) throw new Error("The CMS carries no signer certificate");
  const key = createPublicKey({ key: Buffer.from(readX509Certificate(cms.signerCertificateDer).publicKey.rawData), format: "der", type: "spki" });
  const options = key.asymmetricKeyType === "ec" ? { key, dsaEncoding: "der" as const } : key;
  if (!verify(digestNames[cms.digestAlgorithmOid], content, options, cms.signatureValue)) throw new Error("The signature does not verify");
  return cms.signerCertificateDer;
}

function readSignatureTimeStamp(tokenDer: Uint8Array, signatureValue: Uint8Array): SignatureReport["timeStamp"] {
  const token = safe(() => readTimeStampToken(tokenDer));
  if (!token) return undefined;
  const name = digestNames[token.hashAlgorithmOid];
  const matchesSignature = name !== undefined && equalBytes(createHash(name).update(signatureValue).digest(), token.digest);
  return { at: token.genTime.toISOString(), matchesSignature };
}

type ByteRange = { parts: [[number, number], [number, number]]; end: number; gapIsContents: boolean };

function readByteRange(obj: PDFObject | undefined, bytes: Uint8Array): ByteRange | undefined {
  if (!(obj instanceof PDFArray) || obj.size() !== 4) return undefined;
  const values = obj.asArray().map((item) => (item instanceof PDFNumber ? item.asNumber() : NaN));
  if (!values.every((value) => Number.isSafeInteger(value) && value >= 0)) return undefined;
  const [a, b, c, d] = values;
  if (a + b > c || c + d > bytes.length) return undefined;
  // the hole must be exactly the hex string, so nothing outside /Contents escapes the signature
  const gapIsContents = a === 0 && bytes[a + b] === 0x3c && bytes[c - 1] === 0x3e;
  return { parts: [[a, a + b], [c, c + d]], end: c + d, gapIsContents };
}

/** Anything but whitespace after the signed revision means a later incremental update. */
function hasBytesAfter(bytes: Uint8Array, end: number): boolean {
  for (let i = end; i < bytes.length; i++) if (![0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20].includes(bytes[i])) return true;
  return false;
}

/** PDF date "D:YYYYMMDDHHmmSSOHH'mm'" (ISO 32000 7.9.4); undefined when absent or malformed. */
function readPdfDate(obj: PDFObject | undefined): Date | undefined {
  if (!(obj instanceof PDFString || obj instanceof PDFHexString)) return undefined;
  const match = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz+-])(?:(\d{2})'?(\d{2})?'?)?)?/.exec(obj.decodeText().trim());
  if (!match) return undefined;
  const [, y, mo = "01", d = "01", h = "00", mi = "00", s = "00", sign, oh = "00", om = "00"] = match;
  const offset = sign === "+" || sign === "-" ? `${sign}${oh}:${om}` : "Z";
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}

function safe<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
