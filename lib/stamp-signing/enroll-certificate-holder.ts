import { z } from "zod";
import type { Db } from "@/db/client";
import { certificateHolders, pkiCertificates } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { hashPassword } from "@/lib/auth/password-hash";
import { isUniqueViolation } from "@/db/is-unique-violation";
import { encryptWithPin } from "@/lib/pki/encrypt-private-key";
import { issueHolderCertificate } from "@/lib/pki/issue-certificate";
import { importPkcs12 } from "@/lib/pki/import-pkcs12";
import { isPkiError } from "@/lib/pki/errors";
import { readX509Certificate } from "@/lib/pki/x509-provider";
import { crlBaseUrl, loadPlatformPki, type PkiSettings } from "@/lib/certificates/load-platform-pki";
import { storeCertificate } from "@/lib/certificates/store-certificate";
import { holderKeyAad } from "./unlock-holder-signer";
import { eq } from "drizzle-orm";

export const ZEnrollCertificateHolder = z
  .object({
    sign_username: z.string().trim().min(3, "sign_username debe tener al menos 3 caracteres").max(200),
    sign_password: z.string().min(8, "sign_password debe tener al menos 8 caracteres").max(500),
    sign_pin: z.string().min(4, "sign_pin debe tener al menos 4 caracteres").max(200),
    source: z.enum(["built-in", "pkcs12"], { error: "source debe ser built-in o pkcs12" }).default("built-in"),
    p12_password: z.string().max(500).optional(),
    names: z.string().trim().max(120).optional(),
    last_names: z.string().trim().max(120).optional(),
    person_id_type: z.enum(["DNI", "CE", "PAS"]).default("DNI"),
    person_id: z.string().trim().regex(/^[A-Za-z0-9-]{1,32}$/, "person_id inválido").optional(),
    nationality: z.string().trim().toUpperCase().regex(/^[A-Z]{3}$/).default("PER"),
    validity_days: z.coerce.number().int().min(1).max(3 * 365).default(365),
  })
  .superRefine((v, ctx) => {
    if (v.source === "built-in") {
      for (const f of ["names", "last_names", "person_id"] as const) if (!v[f]) ctx.addIssue({ code: "custom", path: [f], message: `${f} es obligatorio para un certificado emitido por la CA integrada` });
    }
  });
export type EnrollCertificateHolderInput = z.output<typeof ZEnrollCertificateHolder>;

/**
 * Enrols a certificate holder for `digital` signatures: a certificate issued by the built-in CA or
 * imported from PKCS#12. The private key is stored encrypted under a key derived from the PIN,
 * which is never stored.
 */
export async function enrollCertificateHolder(
  input: EnrollCertificateHolderInput & { organizationId: string; p12?: Uint8Array },
  settings: PkiSettings,
  db: Db,
) {
  const pki = await loadPlatformPki(db, settings);
  let certificateDer: Uint8Array;
  let pkcs8: Uint8Array;
  let chainDer: Uint8Array[];
  if (input.source === "pkcs12") {
    if (!input.p12) throw new AppError("VALIDATION", "p12_file es obligatorio para source pkcs12", "p12_file");
    try {
      ({ certificateDer, pkcs8, chainDer } = await importPkcs12(input.p12, input.p12_password ?? ""));
      // roots stay out of the CMS (poppler quirk, docs/pdf-engine.md)
      chainDer = chainDer.filter((der) => {
        const certificate = readX509Certificate(der);
        return certificate.subject !== certificate.issuer;
      });
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
      const certificate = await storeCertificate(tx, {
        certificate: { certificateDer },
        purpose: "holder",
        environment: settings.environment,
        organizationId: input.organizationId,
        chainDer,
        source: input.source,
        secretKey: settings.secretKey,
      });
      const [holder] = await tx
        .insert(certificateHolders)
        .values({ organizationId: input.organizationId, signUsername: input.sign_username, passwordHash, certificateId: certificate.id })
        .returning({ id: certificateHolders.id });
      const encrypted = await encryptWithPin(pkcs8, input.sign_pin, holderKeyAad(holder.id));
      await tx.update(pkiCertificates).set({ privateKeyEncrypted: encrypted }).where(eq(pkiCertificates.id, certificate.id));
      return { holderId: holder.id, signUsername: input.sign_username, subject: certificate.subject, notAfter: certificate.notAfter };
    });
  } catch (error) {
    if (isUniqueViolation(error, "certificate_holders_org_username_key")) throw new AppError("CONFLICT", `sign_username ${input.sign_username} ya está registrado`, "sign_username");
    throw error;
  }
}
