import type { Db } from "@/db/client";
import { certificateHolders, organizations, pkiCertificates } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { AppError } from "@/lib/errors";
import { hashPassword } from "@/lib/auth/password-hash";
import { isUniqueViolation } from "@/db/is-unique-violation";
import { encryptWithPin } from "@/lib/pki/encrypt-private-key";
import { issueHolderCertificate } from "@/lib/pki/issue-certificate";
import type { TaskRunner } from "@/lib/runtime/cpu-pool";
import type { CertificateTasks } from "@/lib/certificates/certificate-tasks";
import { isPkiError } from "@/lib/pki/errors";
import { crlBaseUrl, loadPlatformPki, type PkiSettings } from "@/lib/certificates/load-platform-pki";
import { storeCertificate } from "@/lib/certificates/store-certificate";
import { holderKeyAad, holderKeyPepper } from "./unlock-holder-signer";
import { eq } from "drizzle-orm";
import { ZEnrollCertificateHolder, type EnrollCertificateHolderInput } from "./schemas";

export { ZEnrollCertificateHolder, type EnrollCertificateHolderInput };

/** X.520 bounds an organization name at 64 characters. */
const MAX_ORGANIZATION_NAME = 64;

/**
 * Enrols a certificate holder for `digital` signatures: a certificate issued by the built-in CA or
 * imported from PKCS#12. The private key is stored encrypted under a key derived from the PIN,
 * which is never stored. A certificate of the shared platform CA names the organization that
 * asserted the identity (O of the subject), and the holder row and the audit chain record who
 * enrolled it: the CA certifies "this organization says so", never the name alone.
 */
export async function enrollCertificateHolder(
  input: EnrollCertificateHolderInput & { organizationId: string; p12?: Uint8Array; enrolledBy: { userId: string | null; actor: string } },
  { db, settings, pools }: { db: Db; settings: PkiSettings; pools: { cpu: TaskRunner<CertificateTasks> } },
) {
  const [organization] = await db.select({ displayName: organizations.displayName }).from(organizations).where(eq(organizations.id, input.organizationId)).limit(1);
  if (!organization) throw new AppError("NOT_FOUND");
  const pki = await loadPlatformPki({ db, settings });
  let certificateDer: Uint8Array;
  let pkcs8: Uint8Array;
  let chainDer: Uint8Array[];
  if (input.source === "pkcs12") {
    if (!input.p12) throw new AppError("VALIDATION", "p12_file es obligatorio para source pkcs12", "p12_file");
    try {
      ({ certificateDer, pkcs8, chainDer } = await pools.cpu.run("import-pkcs12", { bytes: input.p12, password: input.p12_password ?? "" }));
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
      organization: organization.displayName.trim().slice(0, MAX_ORGANIZATION_NAME),
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
        .values({
          organizationId: input.organizationId,
          signUsername: input.sign_username,
          passwordHash,
          certificateId: certificate.id,
          enrolledBy: input.enrolledBy.actor,
          enrolledByUserId: input.enrolledBy.userId,
        })
        .returning({ id: certificateHolders.id });
      const encrypted = await encryptWithPin(pkcs8, input.sign_pin, holderKeyAad(holder.id), holderKeyPepper(settings.secretKey));
      await tx.update(pkiCertificates).set({ privateKeyEncrypted: encrypted }).where(eq(pkiCertificates.id, certificate.id));
      await recordAuditEvent(
        { organizationId: input.organizationId, actor: input.enrolledBy.actor, action: "certificate_holder.enrolled", target: input.sign_username, detail: { subject: certificate.subject, source: input.source } },
        tx,
      );
      return { holderId: holder.id, signUsername: input.sign_username, subject: certificate.subject, notAfter: certificate.notAfter };
    });
  } catch (error) {
    if (isUniqueViolation(error, "certificate_holders_org_username_key")) throw new AppError("CONFLICT", `sign_username ${input.sign_username} ya está registrado`, "sign_username");
    throw error;
  }
}
