import type { Db } from "@/db/client";
import type { AppConfig } from "@/lib/config";
import { getCaCertificates } from "@/lib/certificates/get-ca-certificates";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import { AppError } from "@/lib/errors";
import { isPdfError } from "@/lib/pdf/errors";
import type { TaskRunner } from "@/lib/runtime/cpu-pool";
import type { VerificationTasks } from "./verification-tasks";
import type { VerificationReport } from "./verify-pdf-signatures";
import { findEidIssuers } from "./find-eid-issuers";

/** The public verify page's use case: an uploaded PDF's signatures, judged against our CA and TRUST_ANCHORS_FILE. */
export type VerifyUploadDeps = { db: Db; config: AppConfig; pools: { cpu: TaskRunner<VerificationTasks> } };

export async function verifyUploadedPdf(bytes: Uint8Array, { db, config, pools }: VerifyUploadDeps): Promise<VerificationReport> {
  const { pem } = await getCaCertificates({ db, settings: pkiSettingsOf(config) });
  const caDer = [...pem.matchAll(/-----BEGIN CERTIFICATE-----([^-]+)-----END CERTIFICATE-----/g)].map((m) => new Uint8Array(Buffer.from(m[1], "base64")));
  try {
    // off the event loop, under the pool's time and memory limits: uploads are hostile by default; the
    // public lane leaves signing a worker and its own queue however many visitors verify at once
    const report = await pools.cpu.run("verify-pdf", { bytes, anchorsDer: [...caDer, ...config.trustAnchorsDer] }, {}, [], { lane: "public" });
    // the eID provider of our own process signatures, from our record of them (issue 36)
    await findEidIssuers({ signatures: report.signatures }, db);
    return report;
  } catch (error) {
    if (!isPdfError(error)) throw error;
    throw new AppError(error.code === "ENCRYPTED_PDF" ? "ENCRYPTED_PDF" : "INVALID_PDF", error.message, "file");
  }
}
