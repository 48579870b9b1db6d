import { deriveStampLevel, type BuiltSignature } from "@/lib/stamp-signing/derive-stamp-level";
import { lowerLevel } from "@/lib/verification/measure-pades-level";
import { verifyTimeStampToken } from "@/lib/verification/verify-time-stamp-token";
import type { PadesLevel } from "@/lib/verification/verification-report";

export type BuiltProcessSignature = BuiltSignature & {
  /** The last signer's document time-stamp: the token embedded and the SHA-256 of the byte ranges it covers. */
  documentTimeStamp?: { tokenDer: Uint8Array; sha256: Uint8Array };
};

/** A process signature's level as derived from what its request built. */
export type DerivedProcessLevel = {
  /** The signature's own level before any document time-stamp (B-LT when all is well). */
  level: PadesLevel | null;
  /** A document time-stamp that the verifier counts follows the signature's DSS revision. */
  archived: boolean;
};

/**
 * The level of the process signature this request appended, measured on what it built rather than by
 * verifying the whole file again (deriveStampLevel's rules), and whether the document time-stamp it
 * wrote after its DSS holds as the verifier's level judge asks: a token whose imprint matches, whose
 * signature verifies and whose TSA chain is not invalid. The structure of the whole file is checked
 * by the sampled full verification (audit-recorded-level.ts).
 */
export async function deriveProcessSignatureLevel(built: BuiltProcessSignature): Promise<DerivedProcessLevel> {
  const level = await deriveStampLevel(built);
  if (!built.documentTimeStamp) return { level, archived: false };
  const material = { certificatesDer: built.dss.certificates, crlsDer: built.dss.crls, ocspsDer: [], anchorsDer: built.anchorsDer };
  try {
    const stamp = await verifyTimeStampToken(built.documentTimeStamp.tokenDer, { sha256: built.documentTimeStamp.sha256 }, material);
    return { level, archived: stamp.valid };
  } catch {
    return { level, archived: false };
  }
}

const levels: readonly string[] = ["B-B", "B-T", "B-LT", "B-LTA"];

/** A level as stored in a text column; anything else counts as no level. */
export function storedLevel(value: string | null): PadesLevel | null {
  return value !== null && levels.includes(value) ? (value as PadesLevel) : null;
}

/**
 * The level of a file's process signatures once this one is added: the lowest of the earlier ones
 * (as recorded when each was made; `earlier` undefined when this is the first) and this one's. A
 * document time-stamp after them lifts B-LT to B-LTA (pades-level.ts); it lifts nothing lower.
 */
export function levelOfSignatures(earlier: PadesLevel | null | undefined, own: DerivedProcessLevel): { beforeArchive: PadesLevel | null; file: PadesLevel | null } {
  const beforeArchive = earlier === undefined ? own.level : lowerLevel(earlier, own.level);
  return { beforeArchive, file: beforeArchive === "B-LT" && own.archived ? "B-LTA" : beforeArchive };
}
