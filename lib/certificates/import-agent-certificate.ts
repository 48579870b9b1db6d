import type { Db } from "@/db/client";
import { AppError, isAppError } from "@/lib/errors";
import { isUniqueViolation } from "@/db/is-unique-violation";
import type { TaskRunner } from "@/lib/runtime/cpu-pool";
import type { CertificateTasks } from "./certificate-tasks";
import { isPkiError } from "@/lib/pki/errors";
import { readX509Certificate } from "@/lib/pki/x509-provider";
import type { PkiSettings } from "./load-platform-pki";
import { storeCertificate } from "./store-certificate";

/**
 * Replaces the organization's built-in agent certificate with its own, from PKCS#12 (.p12/.pfx).
 * The newest agent certificate wins (loadAgentSigner), so importing again rotates it.
 */
export async function importAgentCertificate(input: { organizationId: string; p12?: Uint8Array; password: string }, { db, settings, pools }: { db: Db; settings: PkiSettings; pools: { cpu: TaskRunner<CertificateTasks> } }) {
  if (!input.p12?.length) throw new AppError("VALIDATION", "p12_file es obligatorio", "p12_file");
  let imported;
  try {
    imported = await pools.cpu.run("import-pkcs12", { bytes: input.p12, password: input.password });
  } catch (error) {
    if (isPkiError(error, "WRONG_PKCS12_PASSWORD")) throw new AppError("VALIDATION", "contraseña del PKCS#12 incorrecta", "p12_password");
    if (isPkiError(error)) throw new AppError("VALIDATION", `PKCS#12 inválido: ${error.message}`, "p12_file");
    if (isAppError(error)) throw error;
    throw error;
  }
  const certificate = readX509Certificate(imported.certificateDer);
  if (certificate.notAfter < new Date()) throw new AppError("VALIDATION", "el certificado del PKCS#12 está vencido", "p12_file");
  // the whole chain, root included: the root checks the CRL of a certificate it issued directly, and
  // goes into the DSS; prepareCmsSigner keeps it out of the CMS (poppler quirk, docs/pdf-engine.md)
  const chainDer = imported.chainDer;
  // the same certificate again (issuer and serial number) is a clear 409, not the constraint's raw error
  const row = await storeCertificate({
    certificate: { certificateDer: imported.certificateDer, pkcs8: imported.pkcs8 },
    purpose: "agent",
    environment: settings.environment,
    organizationId: input.organizationId,
    chainDer,
    source: "pkcs12",
    secretKey: settings.secretKey,
  }, db).catch((error: unknown) => {
    if (isUniqueViolation(error, "pki_certificates_issuer_serial_key")) throw new AppError("CONFLICT", "este certificado ya fue importado (mismo emisor y número de serie)", "p12_file");
    throw error;
  });
  return { subject: row.subject, issuer: row.issuerName, notAfter: row.notAfter };
}
