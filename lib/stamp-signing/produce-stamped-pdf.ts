import { createHash } from "node:crypto";
import { signPdf } from "@/lib/pdf/sign-pdf";
import { signCadesDetached } from "@/lib/pki/sign-cms-detached";
import type { CmsSignerInput } from "@/lib/pki/prepare-cms-signer";
import { drawStamp } from "@/lib/stamp/draw-stamp";
import type { StampImage } from "@/lib/stamp/read-stamp-image";
import { buildStampContent } from "@/lib/stamp/build-stamp-content";
import { signatureTimestampFrom, type TimeStamper } from "@/lib/certificates/time-stamp-authority";
import type { SignPdfFields } from "./schemas";
import type { SigningPlan } from "./plan-stamp-signature";
import { toAppError } from "@/lib/engine-errors";
import { timed } from "@/lib/runtime/request-timing";

export type StampSigningContext = {
  signer: CmsSignerInput;
  timeStamper: TimeStamper;
  /** Appends validation data after the signature (PAdES B-LT). */
  finish: (signed: Uint8Array) => Promise<Uint8Array>;
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
    const timeStamper: typeof context.timeStamper = (digest) => timed("tsa", () => context.timeStamper(digest));
    let built: ProducedStampedPdf["signature"] | undefined;
    const signed = await signPdf(pdf, {
      sign: async (digest) => {
        const cmsDer = await timed("cms", () => signCadesDetached({ digest, signer: context.signer, signatureTimestamp: signatureTimestampFrom(timeStamper) }));
        built = { cmsDer, byteRangeDigest: digest };
        return cmsDer;
      },
      signerName: fields.names ? `${fields.names} ${fields.last_names ?? ""}`.trim() : undefined,
      reason: `Firma ${signTypeLabel[fields.sign_type]} · Id ${context.txToken}`,
      signingTime: context.signedAt,
      appendPage: plan.placement?.appendPage,
      widget,
    });
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
