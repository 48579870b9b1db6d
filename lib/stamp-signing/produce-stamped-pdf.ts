// signPDF's worker side, in one task: plan (read and check the upload), the claim and validation
// data asked of the main thread, produce (stamp, incremental signature, DSS), and the level derived
// from what was built. The main thread's side is sign-stamp-now.ts.
import { createHash } from "node:crypto";
import { acceptPdf } from "@/lib/pdf/accept-pdf";
import { repairPdf } from "@/lib/pdf/repair-pdf";
import { signPdf } from "@/lib/pdf/sign-pdf";
import { finishLongTermValidation, type LongTermValidationInput } from "@/lib/pdf/add-document-timestamp";
import { signCadesDetached } from "@/lib/pki/sign-cms-detached";
import type { CmsSignerInput } from "@/lib/pki/prepare-cms-signer";
import { drawStamp } from "@/lib/stamp/draw-stamp";
import type { StampImage } from "@/lib/stamp/read-stamp-image";
import { buildStampContent } from "@/lib/stamp/build-stamp-content";
import { signatureTimestampFrom, type TimeStamper } from "@/lib/certificates/time-stamp-authority";
import { toAppError } from "@/lib/engine-errors";
import { timed } from "@/lib/runtime/request-timing";
import type { PadesLevel } from "@/lib/verification/verification-report";
import type { SignPdfFields } from "./schemas";
import { planStampSignature, type SigningPlan } from "./plan-stamp-signature";
import { deriveStampLevel } from "./derive-stamp-level";

/** The validation step's answer: DSS data for the signer's chain, the anchors its level is judged from, and what could not be had. */
export type StampValidationData = Pick<LongTermValidationInput, "certificates" | "crls"> & { anchorsDer: Uint8Array[]; revocationUnavailable: string[] };

/** What the task gives back: the signed PDF and what the main thread completes the transaction with. */
export type StampSignTaskOutput = {
  pdf: Uint8Array;
  sha256: string;
  padesLevel: PadesLevel | null;
  revocationUnavailable: string[];
  signerChainDer: readonly Uint8Array[];
  /** Set when `pdf` is the upload followed by revisions written in its own buffer: how many first bytes are the upload. */
  uploadPrefixBytes?: number;
};

export type StampSignTaskInput = {
  pdf: Uint8Array;
  image?: Uint8Array;
  fields: SignPdfFields;
  txToken: string;
  environment: "quality" | "production";
  verifyUrl: string;
  /** `pdf` was moved here with room after it in its buffer (an upload, collect-upload.ts): the revisions are written there, not into copies. */
  pdfTailIsFree?: boolean;
};

/**
 * The exchange with the main thread, one typed message per step, each answered with a value (the
 * main thread keeps no state between them): asked for only once the request has been checked.
 */
export type StampSigningCalls = {
  /** Resolves the signer and claims the transaction (the database lives on the main thread). */
  claim: (facts: { repaired: boolean }) => Promise<CmsSignerInput>;
  /** Certificates and CRLs for the DSS of the signer's chain (the claim's answer, sent back), and the anchors its level is judged from. */
  validation: (signer: { certificateDer: Uint8Array; chainDer: readonly Uint8Array[] }) => Promise<StampValidationData>;
  timestamp: TimeStamper;
};

/**
 * A signPDF signed now, in one worker task: the upload is read (and rebuilt when damaged), checked
 * against the request, and signed from the same parse and the same checked image. The transaction
 * is claimed in between, so a bad document, page, image or position is refused before the tx_token
 * is taken, in the same order and with the same errors as before any work is queued. The PAdES
 * level is derived from the CMS, time-stamp and DSS data this task built.
 */
export async function planAndProduceStampedPdf(input: StampSignTaskInput, calls: StampSigningCalls): Promise<StampSignTaskOutput> {
  const plan = await planStampSignature({ fields: input.fields, upload: input.pdf, image: input.image }, {
    accept: (bytes) => timed("inspect", () => acceptPdf(bytes, { repair: repairPdf })),
  });
  const signer = await calls.claim({ repaired: plan.repaired });
  // read on the main thread (a database statement) while this worker builds and signs the update
  const validationAsked = calls.validation({ certificateDer: signer.certificateDer, chainDer: signer.chainDer });
  // when signing fails first nothing awaits it: not an unhandled rejection (the pool still reports the failure once this step settled)
  validationAsked.catch(() => undefined);
  // a rebuilt (repaired) document is new bytes of its own size: only the upload itself has the room
  const tailIsFree = input.pdfTailIsFree === true && plan.pdf === input.pdf;
  const produced = await produceStampedPdf(plan.pdf, plan.image, input.fields, plan, {
    signer,
    timeStamper: calls.timestamp,
    finish: async (pdf) => {
      const { certificates, crls } = await validationAsked;
      return finishLongTermValidation(pdf, { certificates, crls, tailIsFree });
    },
    tailIsFree,
    txToken: input.txToken,
    environment: input.environment,
    verifyUrl: input.verifyUrl,
    signedAt: new Date(),
  });
  const validation = await validationAsked;
  // measured on what this task built, in the same worker: no second task re-reads the whole output
  const padesLevel = await timed("level", () => deriveStampLevel({ ...produced.signature, dss: validation, anchorsDer: validation.anchorsDer }));
  // the same buffer, the same start: the revisions went after the upload, which nothing rewrote (join-revisions.ts)
  const extendsUpload = tailIsFree && produced.pdf.buffer === input.pdf.buffer && produced.pdf.byteOffset === input.pdf.byteOffset && produced.pdf.length >= input.pdf.length;
  return {
    pdf: produced.pdf,
    sha256: produced.sha256,
    padesLevel,
    revocationUnavailable: validation.revocationUnavailable,
    signerChainDer: signer.chainDer,
    ...(extendsUpload ? { uploadPrefixBytes: input.pdf.length } : {}),
  };
}

export type StampSigningContext = {
  signer: CmsSignerInput;
  timeStamper: TimeStamper;
  /** Appends validation data after the signature (PAdES B-LT). */
  finish: (signed: Uint8Array) => Promise<Uint8Array>;
  /** The memory after the document in its buffer may take the revisions (join-revisions.ts). */
  tailIsFree?: boolean;
  txToken: string;
  environment: "quality" | "production";
  verifyUrl: string;
  signedAt: Date;
};

export type ProducedStampedPdf = {
  pdf: Uint8Array;
  sha256: string;
  /** What this request signed, for the level derived from it (derive-stamp-level.ts). */
  signature: { cmsDer: Uint8Array; byteRangeDigest: Uint8Array };
};

const signTypeLabel = { agente: "agente", digital: "digital", otp: "OTP" } as const;

/**
 * Draws the stamp as the appearance of the signature's own widget and signs the PDF as an
 * incremental update: CAdES detached with signing-certificate-v2 and a signature time-stamp, then
 * validation data in a DSS revision (PAdES B-LT).
 */
export async function produceStampedPdf(
  pdf: Uint8Array,
  image: StampImage | undefined,
  fields: SignPdfFields,
  plan: Pick<SigningPlan, "placement">,
  context: StampSigningContext,
): Promise<ProducedStampedPdf> {
  try {
    const appearance = plan.placement ? await timed("stamp-draw", () => drawAppearance(image, fields, context)) : undefined;
    const widget = plan.placement && appearance ? { pageIndex: plan.placement.pageIndex, rect: plan.placement.rect, appearance } : undefined;
    let built: ProducedStampedPdf["signature"] | undefined;
    // the incremental update itself; the CMS (and its time-stamp) inside it are stages of their own
    const signed = await timed("pdf-update", () => signPdf(pdf, {
      sign: async (digest) => {
        const cmsDer = await timed("cms", () => signCadesDetached({ digest, signer: context.signer, signatureTimestamp: signatureTimestampFrom(context.timeStamper) }));
        built = { cmsDer, byteRangeDigest: digest };
        return cmsDer;
      },
      signerName: fields.names ? `${fields.names} ${fields.last_names ?? ""}`.trim() : undefined,
      reason: `Firma ${signTypeLabel[fields.sign_type]} · Id ${context.txToken}`,
      signingTime: context.signedAt,
      tailIsFree: context.tailIsFree,
      appendPage: plan.placement?.appendPage,
      widget,
    }));
    const finished = await timed("dss", () => context.finish(signed));
    return { pdf: finished, sha256: createHash("sha256").update(finished).digest("hex"), signature: built! };
  } catch (error) {
    throw toAppError(error);
  }
}

async function drawAppearance(image: StampImage | undefined, fields: SignPdfFields, context: StampSigningContext) {
  const data = {
    names: fields.names ?? "",
    lastNames: fields.last_names ?? "",
    personIdType: fields.person_id_type,
    personId: fields.person_id ?? "",
    nationality: fields.nationality,
    email: fields.email,
    signType: fields.sign_type,
    txToken: context.txToken,
    signedAt: context.signedAt,
    environment: context.environment,
    verifyUrl: context.verifyUrl,
  };
  const qrText = fields.qr_type ? buildStampContent(data, fields.qr_type === "text" ? { type: "text", text: fields.qr_text! } : { type: "auto" }).qrText : null;
  const stamp = await drawStamp({
    data,
    image,
    qr: qrText === null ? null : { text: qrText },
    size: fields.stamp_size as 1 | 2,
  });
  return { document: stamp.document, formXObject: stamp.formXObject };
}
