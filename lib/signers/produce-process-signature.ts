import { finishLongTermValidation, type LongTermValidationInput } from "@/lib/pdf/add-document-timestamp";
import { signPdf } from "@/lib/pdf/sign-pdf";
import type { CmsSignerInput } from "@/lib/pki/prepare-cms-signer";
import { signCadesDetached } from "@/lib/pki/sign-cms-detached";
import { drawStamp, type DrawStampInput } from "@/lib/stamp/draw-stamp";
import { toAppError } from "@/lib/engine-errors";
import { createHash } from "node:crypto";
import { timed } from "@/lib/runtime/request-timing";
import { deriveProcessSignatureLevel, type BuiltProcessSignature, type DerivedProcessLevel } from "./derive-process-level";

export type ProcessSignatureInput = {
  original: Uint8Array;
  stamp: { data: DrawStampInput["data"]; size: 1 | 2; orientation: "horizontal" | "vertical" };
  /** The grid slot the stamp goes in, on `pageIndex` (appended when `appendPage` is set). */
  slot: { x: number; y: number; width: number; height: number };
  pageIndex: number;
  appendPage?: { width: number; height: number };
  signer: CmsSignerInput;
  signerName: string;
  reason: string;
  signedAt: Date;
  validation: Pick<LongTermValidationInput, "certificates" | "crls">;
  /** The anchors a validator of our outputs starts from (our root, configured ones), for the derived level. */
  anchorsDer: Uint8Array[];
  /** The last signer also adds the document time-stamp (B-LTA). */
  archive: boolean;
};

/** What the task asks the main thread for: the signature's and the document's time-stamp tokens. */
/** The signed file and the level derived from what was built (derive-process-level.ts). */
export type ProcessSignatureOutput = { pdf: Uint8Array } & DerivedProcessLevel;

export type ProcessSignatureCalls = { timestamp: (digestSha256: Uint8Array) => Promise<Uint8Array>; documentTimestamp: (digestSha256: Uint8Array) => Promise<Uint8Array> };

/**
 * One process signer's signature on one file, a pure function of its input plus the time-stamp
 * source (it runs in the worker pool): stamp drawn, incremental CAdES signature with its
 * time-stamp, validation data, and for the last signer the document time-stamp (whose token,
 * unlike the signature's, carries the TSA certificate). The level is derived here, in the same
 * worker, from the CMS, tokens and DSS data it built: no second task re-reads the whole file.
 */
export async function produceProcessSignature(
  input: ProcessSignatureInput,
  { timestamp, documentTimestamp }: ProcessSignatureCalls,
): Promise<ProcessSignatureOutput> {
  try {
    let signature: Pick<BuiltProcessSignature, "cmsDer" | "byteRangeDigest"> | undefined;
    let documentTimeStamp: BuiltProcessSignature["documentTimeStamp"];
    const stamp = await timed("stamp-draw", () => drawStamp({ data: input.stamp.data, qr: null, size: input.stamp.size, orientation: input.stamp.orientation }));
    // the grid reserves exactly the drawn size: the stamp goes at the listed x/y, never scaled
    if (stamp.width !== input.slot.width || stamp.height !== input.slot.height) throw new Error("the stamp does not match its grid slot");
    const signed = await signPdf(input.original, {
      sign: async (digest) => {
        const cmsDer = await timed("cms", () =>
          signCadesDetached({ digest, signer: input.signer, signatureTimestamp: (value) => timestamp(new Uint8Array(createHash("sha256").update(value).digest())) }),
        );
        signature = { cmsDer, byteRangeDigest: digest };
        return cmsDer;
      },
      signerName: input.signerName,
      reason: input.reason,
      signingTime: input.signedAt,
      appendPage: input.appendPage,
      widget: { pageIndex: input.pageIndex, rect: input.slot, appearance: stamp },
    });
    const archive = {
      ...input.validation,
      timestamp: async (sha256: Uint8Array) => {
        const tokenDer = await documentTimestamp(sha256);
        documentTimeStamp = { tokenDer, sha256 };
        return tokenDer;
      },
    };
    const pdf = await timed("dss", () => finishLongTermValidation(signed, input.archive ? archive : input.validation));
    if (!signature) throw new Error("the signature was not built");
    const built = { ...signature, documentTimeStamp, dss: { certificates: input.validation.certificates, crls: input.validation.crls }, anchorsDer: input.anchorsDer };
    return { pdf, ...(await timed("level", () => deriveProcessSignatureLevel(built))) };
  } catch (error) {
    throw toAppError(error);
  }
}
