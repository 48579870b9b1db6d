import { createHash } from "node:crypto";
import type { Services } from "@/lib/runtime/services";
import type { SignerPinfo } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { issueSignerCertificate } from "@/lib/pki/issue-certificate";
import { crlBaseUrl, loadPlatformPki } from "@/lib/certificates/load-platform-pki";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import { storeCertificate } from "@/lib/certificates/store-certificate";
import { documentTimeStamperFor, timeStamperFor } from "@/lib/certificates/time-stamp-authority";
import { validationData } from "@/lib/certificates/finish-long-term-validation";
import { lowerLevel, measurePadesLevel, measurePadesLevelOrUnmeasured } from "@/lib/verification/measure-pades-level";
import { auditRecordedLevel, isAuditSampled } from "@/lib/stamp-signing/audit-recorded-level";
import type { TaskRunner } from "@/lib/runtime/cpu-pool";
import type { SignerTasks } from "./signer-tasks";
import { timed } from "@/lib/runtime/request-timing";
import type { PadesLevel } from "@/lib/verification/verification-report";
import { prepareSignerSignature } from "./prepare-signer-signature";
import { levelOfSignatures } from "./derive-process-level";
import { completeSignerSignature, type SignedDocument } from "./complete-signer-signature";
import type { SignerClient } from "./describe-signer-client";
import { flowOf } from "./nationality-flows";
import { metrics } from "@/lib/metrics/metrics";
import { assertEveryPageShown } from "./record-pages-shown";
import { SignerFlowError } from "./signer-flow-error";
import { identityLevelPolicyOids } from "@/lib/identity-assurance/identity-level";
import { signatureIdentityOf } from "@/lib/identity-assurance/signature-identity";

/**
 * Five years, so the signature keeps validating in tools that check certificates at the current
 * time (pdfsig, validate-pdf, many viewers). The key is generated for this signing, used once and
 * never stored, so the lifetime gives nobody a key to misuse; see docs/pdf-engine.md.
 */
const SIGNER_CERTIFICATE_MINUTES = 5 * 365 * 24 * 60;

/**
 * The cryptographic step of a process signature: a certificate for this person (fresh key, used
 * once and dropped), one incremental PAdES signature per file with the stamp on the appended page,
 * validation data after it, and for the last signer the document time stamp (B-LTA). Refused
 * before any of that while the record says a page was never shown to the signer. The signed
 * revisions are stored, then recorded by completeSignerSignature with the device that signed.
 * Its three steps are the Server-Timing stages of the request (plan, produce, complete, the words
 * signPDF uses too); the database, blob store and pool time within them is charged where it is spent.
 */
export type SignAsProcessSignerInput = { token: string; signerId: string; sessionId?: string; client?: SignerClient };
/** What signing needs: the database, the stored documents, the settings and the pool that draws and signs. */
export type ProcessSigningDeps = Pick<Services, "db" | "blobs" | "config" | "pools">;

export async function signAsProcessSigner(input: SignAsProcessSignerInput, services: ProcessSigningDeps) {
  const plan = await timed("plan", () => planProcessSignature(input, services));
  const produced = await timed("produce", () => produceSignedDocuments(plan, services));
  // records the signature; the last one concludes the process and queues its callback, in one transaction
  const completed = await timed("complete", () => completeSignerSignature(
    { token: input.token, signerId: input.signerId, sessionId: input.sessionId, signedDocuments: produced.signedDocuments, signAction: "sign", client: input.client, padesLevel: plan.isLastSigner ? produced.padesLevel : undefined, identity: plan.proven, pagesShown: plan.pagesShown, certificateSha256: createHash("sha256").update(plan.cmsSigner.certificateDer).digest("hex") },
    services.db,
  ));
  // only the last signer's file is measured; earlier signatures are counted as unmeasured
  metrics().signatures.inc({ kind: "process", pades_level: plan.isLastSigner ? (produced.padesLevel ?? "none") : "unmeasured" }, produced.signedDocuments.length);
  if (completed.completed) auditDerivedLevels({ processId: plan.processId, outputs: produced.derived }, services);
  return completed;
}

/**
 * A sample of completed processes (LEVEL_AUDIT_RATE) has each derived file level verified again in
 * full, after the answer and off the request's time, to catch a derived level that disagrees.
 */
function auditDerivedLevels({ processId, outputs }: { processId: string; outputs: { pdf: Uint8Array; level: PadesLevel | null; ourSignatures: number }[] }, { db, config, pools }: ProcessSigningDeps) {
  if (outputs.length === 0 || !isAuditSampled(config.LEVEL_AUDIT_RATE)) return;
  const settings = { ...pkiSettingsOf(config), externalTsaUrl: config.TSA_URL, externalTsaToken: config.TSA_URL_AUTH_TOKEN, trustAnchorsDer: config.trustAnchorsDer };
  for (const output of outputs) {
    const measure = (pdf: Uint8Array) => measurePadesLevelOrUnmeasured({ pdf, ourSignatures: output.ourSignatures }, { db, settings, pools });
    void auditRecordedLevel({ kind: "process", transaction: processId, pdf: output.pdf, recorded: output.level }, { measure });
  }
}

type ProcessSignaturePlan = Awaited<ReturnType<typeof planProcessSignature>>;

/** Who signs what, with which freshly issued certificate, time stampers and validation data. */
async function planProcessSignature(input: { token: string; signerId: string; sessionId?: string }, { db, blobs, config, pools }: ProcessSigningDeps) {
  const plan = await prepareSignerSignature(input, db);
  // the first file is read while the certificate is made (one file: most processes; more would all be held at once)
  const firstOriginal = plan.documents.length > 0 ? blobs.get(plan.documents[0].blobKey) : undefined;
  // a plan refused below leaves this read unawaited: its failure is not the request's
  firstOriginal?.catch(() => undefined);
  // the reading record the signature is made on: checked complete here, and recorded as its evidence
  const pagesShown = await assertEveryPageShown(plan, db);
  // the names the signer confirmed (prepareSignerSignature refuses to go on without them)
  const pinfo: SignerPinfo = plan.signer.pinfo!;
  // the level the signer proved goes into the certificate; none proven (an ID photo under review) never signs
  const proven = signatureIdentityOf(plan.signer);
  if (!proven) throw new SignerFlowError(plan.signer.signChallenges.includes("facial") ? "identity_under_review" : "facial_required");
  const flow = flowOf(plan.signer.nat);
  const identity = { nationality: flow.country, idType: flow.idType };
  const settings = { ...pkiSettingsOf(config), externalTsaUrl: config.TSA_URL, externalTsaToken: config.TSA_URL_AUTH_TOKEN };
  const pki = await loadPlatformPki({ db, settings });
  const givenNames = pinfo.given_name.trim();
  const lastNames = pinfo.family_name.trim();
  const certificate = await timed("certificate", () => issueSignerCertificate(pki.issuing, {
    givenNames,
    lastNames,
    nationality: identity.nationality,
    idType: identity.idType,
    idNumber: plan.signer.docId,
    validityMinutes: SIGNER_CERTIFICATE_MINUTES,
    crlBaseUrl: crlBaseUrl(settings.publicUrl),
    policyOids: [identityLevelPolicyOids[proven.level]],
    // the shared platform CA certifies the person for this organization: who vouched is in the subject
    organization: plan.organizationName.trim().slice(0, 64),
  }));
  // the certificate is kept (for revocation and audit; its key is not) while its validation data is
  // read: neither needs the other, so on PostgreSQL the two statements share one wait
  const [, timeStamper, documentTimeStamper, validation] = await Promise.all([
    storeCertificate({ certificate: { certificateDer: certificate.certificateDer }, purpose: "signer", environment: settings.environment, organizationId: plan.organizationId, chainDer: [pki.issuing.certificateDer], secretKey: settings.secretKey }, db),
    timeStamperFor({ db, settings }),
    documentTimeStamperFor({ db, settings }),
    timed("dss", () => validationData({ signerCertificates: [certificate.certificateDer] }, { db, settings, pools })),
  ]);
  return {
    ...plan,
    firstOriginal,
    pagesShown,
    proven,
    identity,
    givenNames,
    lastNames,
    settings,
    cmsSigner: { certificateDer: certificate.certificateDer, privateKey: certificate.privateKey, chainDer: [pki.issuing.certificateDer] },
    timeStamper,
    documentTimeStamper,
    validation,
    // where a validator of our outputs starts from, for the level derived in the worker
    anchorsDer: [pki.root.certificateDer, ...config.trustAnchorsDer],
    signedAt: new Date(),
  };
}

/** Each file signed in the worker pool and stored, and the level the last signer's files reach. */
async function produceSignedDocuments(plan: ProcessSignaturePlan, { db, blobs, config, pools }: ProcessSigningDeps) {
  const cpu: TaskRunner<SignerTasks> = pools.cpu;
  const { identity, givenNames, lastNames, settings, cmsSigner, signedAt, validation, timeStamper, documentTimeStamper, anchorsDer } = plan;
  const signedDocuments: SignedDocument[] = [];
  // the completed files whose level was derived rather than measured, for the sampled full check
  const derived: { pdf: Uint8Array; level: PadesLevel | null; ourSignatures: number }[] = [];
  let padesLevel: PadesLevel | null = "B-LTA";
  for (const [index, document] of plan.documents.entries()) {
    const original = index === 0 && plan.firstOriginal ? await plan.firstOriginal : await blobs.get(document.blobKey);
    if (!original) throw new AppError("GONE", `el documento ${document.name} ya no está disponible`);
    // drawing, signing and the derived level run in the worker pool; the database-backed TSA answers from here
    const signed = await cpu.run(
      "produce-process-signature",
      {
        original,
        stamp: {
          data: {
            names: givenNames,
            lastNames,
            personIdType: identity.idType,
            personId: plan.signer.docId,
            nationality: identity.nationality,
            signType: "digital",
            txToken: plan.processId.split(":")[0],
            signedAt,
            environment: config.APP_ENV,
            verifyUrl: `${config.publicUrl}/verify`,
          },
          size: document.stampSize === 2 ? 2 : 1,
          orientation: document.stampOrientation,
        },
        slot: document.stampRect,
        pageIndex: document.stampPage.pageIndex,
        appendPage: document.appendStampPage ? { width: document.stampPage.width, height: document.stampPage.height } : undefined,
        signer: cmsSigner,
        signerName: `${givenNames} ${lastNames}`,
        reason: plan.description ? `Firma del proceso: ${plan.description}`.slice(0, 200) : "Firma del proceso",
        signedAt,
        validation,
        anchorsDer,
        archive: plan.isLastSigner,
      },
      { timestamp: (digest: Uint8Array) => timeStamper(digest), documentTimestamp: (digest: Uint8Array) => documentTimeStamper(digest) },
    );
    const level = levelOfSignatures(document.signaturesLevel, signed);
    if (plan.isLastSigner) {
      // no level derived (one signature has none, or was made before levels were recorded): the verifier measures the whole file
      const fileLevel = level.file ?? (await timed("level", () => measurePadesLevel({ pdf: signed.pdf, ourSignatures: document.processSignatures }, { db, settings: { ...settings, trustAnchorsDer: config.trustAnchorsDer }, pools })));
      if (level.file !== null) derived.push({ pdf: signed.pdf, level: level.file, ourSignatures: document.processSignatures });
      padesLevel = lowerLevel(padesLevel, fileLevel);
    }
    await blobs.put(document.outputBlobKey, signed.pdf, "application/pdf");
    signedDocuments.push({
      documentId: document.documentId,
      blobKey: document.outputBlobKey,
      sha256: createHash("sha256").update(signed.pdf).digest("hex"),
      baseBlobKey: document.blobKey,
      signaturesLevel: level.beforeArchive,
    });
  }
  return { signedDocuments, padesLevel, derived };
}
