import type { Db } from "@/db/client";
import { certificateHolders, pkiCertificates } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { hashPassword } from "@/lib/auth/password-hash";
import { isUniqueViolation } from "@/db/is-unique-violation";
import { encryptWithPin } from "@/lib/pki/encrypt-private-key";
import { issueHolderCertificate } from "@/lib/pki/issue-certificate";
import { cpuPool } from "@/lib/runtime/cpu-pool";
import { isPkiError } from "@/lib/pki/errors";
import { crlBaseUrl, loadPlatformPki, type PkiSettings } from "@/lib/certificates/load-platform-pki";
import { storeCertificate } from "@/lib/certificates/store-certificate";
import { holderKeyAad, holderKeyPepper } from "./unlock-holder-signer";
import { eq } from "drizzle-orm";
import { ZEnrollCertificateHolder, type EnrollCertificateHolderInput } from "./schemas";

export { ZEnrollCertificateHolder, type EnrollCertificateHolderInput };

/**
 * Enrols a certificate holder for `digital` signatures: a certificate issued by the built-in CA or
 * imported from PKCS#12. The private key is stored encrypted under a key derived from the PIN,
 * which is never stored.
 */
export async function enrollCertificateHolder(
  input: EnrollCertificateHolderInput & { organizationId: string; p12?: Uint8Array },
  { db, settings }: { db: Db; settings: PkiSettings },
) {
  const pki = await loadPlatformPki({ db, settings });
  let certificateDer: Uint8Array;
  let pkcs8: Uint8Array;
  let chainDer: Uint8Array[];
  if (input.source === "pkcs12") {
    if (!input.p12) throw new AppError("VALIDATION", "p12_file es obligatorio para source pkcs12", "p12_file");
    try {
      ({ certificateDer, pkcs8, chainDer } = await cpuPool().run("import-pkcs12", { bytes: input.p12, password: input.p12_password ?? "" }));
      // the root is kept (validation data of a certificate it issued directly); prepareCmsSigner keeps it out of the CMS
    } catch (error) {
      if (isPkiError(error)) throw new AppError("VALIDATION", error.code === "WRONG_PKCS12_PASSWORD" ? "contraseña del PKCS#12 incorrecta" : `PKCS#12 inválido: ${error.message}`, error.code === "WRONG_PKCS12_PASSWORD" ? "p12_password" : "p12_file");
      throw error;
    }
  } else {
    const issued = await issueHolderCertificate(pki.issuing, {
      givenNames: input.names!,
      lastNames: input.last_names!,
      idType: input.person_id_type,
      idNumber: input.person_id!,
      nationality: input.nationality,
      validityDays: input.validity_days,
      crlBaseUrl: crlBaseUrl(settings.publicUrl),
    });
    ({ certificateDer, pkcs8 } = issued);
    chainDer = [pki.issuing.certificateDer]; // never the root (poppler quirk, docs/pdf-engine.md)
  }
  const passwordHash = await hashPassword(input.sign_password);
  try {
    return await db.transaction(async (tx) => {
      const certificate = await storeCertificate({
        certificate: { certificateDer },
        purpose: "holder",
        environment: settings.environment,
        organizationId: input.organizationId,
        chainDer,
        source: input.source,
        secretKey: settings.secretKey,
      }, tx);
      const [holder] = await tx
        .insert(certificateHolders)
        .values({ organizationId: input.organizationId, signUsername: input.sign_username, passwordHash, certificateId: certificate.id })
        .returning({ id: certificateHolders.id });
      const encrypted = await encryptWithPin(pkcs8, input.sign_pin, holderKeyAad(holder.id), holderKeyPepper(settings.secretKey));
      await tx.update(pkiCertificates).set({ privateKeyEncrypted: encrypted }).where(eq(pkiCertificates.id, certificate.id));
      return { holderId: holder.id, signUsername: input.sign_username, subject: certificate.subject, notAfter: certificate.notAfter };
    });
  } catch (error) {
    if (isUniqueViolation(error, "certificate_holders_org_username_key")) throw new AppError("CONFLICT", `sign_username ${input.sign_username} ya está registrado`, "sign_username");
    throw error;
  }
}
