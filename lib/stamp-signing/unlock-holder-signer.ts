import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { certificateHolders, pkiCertificates } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { verifyAgainstNothing, verifyPassword } from "@/lib/auth/password-hash";
import { deriveKey } from "@/lib/crypto/derive-key";
import { decryptWithPinAndPepper, encryptWithPin } from "@/lib/pki/encrypt-private-key";
import { importPrivateKey } from "@/lib/pki/import-private-key";
import { isPkiError } from "@/lib/pki/errors";
import type { CmsSignerInput } from "@/lib/pki/prepare-cms-signer";
import { splitDer } from "@/lib/certificates/store-certificate";

export const MAX_FAILED_UNLOCKS = 5;
export const LOCKOUT_MINUTES = 15;

export const holderKeyAad = (holderId: string) => `holder:${holderId}`;

/** The server half of a holder key's wrapping key; the PIN is the other half. */
export const holderKeyPepper = (secretKey: Uint8Array) => deriveKey(secretKey, "holder-key-pepper");

/**
 * `digital` signatures: sign_username + sign_password authenticate to the holder, and the PIN
 * unlocks the private key for this request only. Five failures lock the holder for 15 minutes.
 */
export async function unlockHolderSigner(
  input: { organizationId: string; signUsername: string; signPassword: string; pin: string },
  { db, secretKey }: { db: Db; secretKey: Uint8Array },
): Promise<{ signer: CmsSignerInput; holderId: string }> {
  const [row] = await db
    .select({ holder: certificateHolders, certificate: pkiCertificates })
    .from(certificateHolders)
    .innerJoin(pkiCertificates, eq(certificateHolders.certificateId, pkiCertificates.id))
    .where(and(eq(certificateHolders.organizationId, input.organizationId), eq(certificateHolders.signUsername, input.signUsername), isNull(certificateHolders.revokedAt)))
    .limit(1);
  if (!row) {
    await verifyAgainstNothing(input.signPassword);
    throw new AppError("VALIDATION", "Credenciales de firma digital inválidas: usuario o contraseña incorrectos", "sign_username");
  }
  const { holder, certificate } = row;
  if (certificate.revokedAt || certificate.notAfter < new Date()) {
    throw new AppError("VALIDATION", "El certificado de firma digital está revocado o vencido", "sign_username");
  }
  // the attempt is counted before the slow checks, so parallel requests cannot all be evaluated
  const lockedUntil = await claimAttempt(holder.id, db);
  if (lockedUntil) {
    throw new AppError("LOCKED", `Certificado bloqueado por intentos fallidos; intente después de ${lockedUntil.toISOString()}`, "sign_username");
  }
  if (!(await verifyPassword(holder.passwordHash, input.signPassword))) {
    throw new AppError("VALIDATION", "Credenciales de firma digital inválidas: usuario o contraseña incorrectos", "sign_password");
  }
  let pkcs8: Uint8Array;
  const pepper = holderKeyPepper(secretKey);
  try {
    const opened = await decryptWithPinAndPepper(new Uint8Array(certificate.privateKeyEncrypted!), input.pin, holderKeyAad(holder.id), pepper);
    pkcs8 = opened.pkcs8;
    // keys enrolled before the pepper are re-wrapped the first time their PIN is given
    if (opened.legacy) {
      const rewrapped = await encryptWithPin(pkcs8, input.pin, holderKeyAad(holder.id), pepper);
      await db.update(pkiCertificates).set({ privateKeyEncrypted: rewrapped }).where(eq(pkiCertificates.id, certificate.id));
    }
  } catch (error) {
    if (!isPkiError(error, "WRONG_PIN") && !isPkiError(error, "DECRYPTION_FAILED")) throw error;
    throw new AppError("VALIDATION", "PIN incorrecto", "sign_pin");
  }
  // the right password and PIN: the count starts again
  await db.update(certificateHolders).set({ failedAttempts: 0, lockedUntil: null }).where(eq(certificateHolders.id, holder.id));
  return {
    holderId: holder.id,
    signer: {
      certificateDer: new Uint8Array(certificate.certificateDer),
      privateKey: await importPrivateKey(pkcs8),
      chainDer: splitDer(certificate.chainDer ? new Uint8Array(certificate.chainDer) : null),
    },
  };
}

/**
 * Counts one attempt with a single conditional UPDATE … RETURNING, on PGlite and PostgreSQL alike:
 * refused (returns the lock's end) while the holder is locked; the attempt that reaches
 * MAX_FAILED_UNLOCKS sets the lock itself, so at most that many are ever evaluated per window. An
 * expired lock starts a new count.
 */
async function claimAttempt(holderId: string, db: Db): Promise<Date | undefined> {
  const expired = sql`(${certificateHolders.lockedUntil} is not null and ${certificateHolders.lockedUntil} <= now())`;
  const next = sql`(case when ${expired} then 1 else ${certificateHolders.failedAttempts} + 1 end)`;
  const claimed = await db
    .update(certificateHolders)
    .set({
      failedAttempts: next,
      lockedUntil: sql`case when ${next} >= ${MAX_FAILED_UNLOCKS} then now() + make_interval(mins => ${LOCKOUT_MINUTES}) else null end`,
    })
    .where(and(eq(certificateHolders.id, holderId), sql`(${certificateHolders.lockedUntil} is null or ${certificateHolders.lockedUntil} <= now() or ${certificateHolders.failedAttempts} < ${MAX_FAILED_UNLOCKS})`))
    .returning({ id: certificateHolders.id });
  if (claimed.length > 0) return undefined;
  const [current] = await db.select({ lockedUntil: certificateHolders.lockedUntil }).from(certificateHolders).where(eq(certificateHolders.id, holderId));
  return current?.lockedUntil ?? new Date();
}
