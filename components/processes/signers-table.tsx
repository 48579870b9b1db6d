import type { ProcessDetail } from "@/lib/processes/get-process-detail";
import type { Locale, MessageKey } from "@/lib/i18n/messages";
import { ProcessStatusBadge } from "./process-status-badge";
import { formatDateTime } from "./format-date-time";
import { modifiableSigner } from "./edit-signer-values";
import { SignerChanges } from "./signer-changes";
import { SignerRowActions } from "./signer-row-actions";
import { UnlockSignerButton } from "./unlock-signer-button";

type Props = { detail: ProcessDetail; showSelfie: boolean; canModify: boolean; canUnlock: boolean; t: (key: MessageKey) => string; locale: Locale; timeZone: string };

/**
 * Signers with their state and sign_data; the selfie only for roles with biometrics:read. With
 * canModify (an open process and processes:modify), signers who have not signed can be edited or removed;
 * with canUnlock (an open process and identity:review), a signer locked by failed tries can be unlocked.
 */
export function SignersTable({ detail, showSelfie, canModify, canUnlock, t, locale, timeZone }: Props) {
  const pendingCount = detail.signers.filter((s) => s.status === "pending").length;
  return (
    <section className="card">
      <h2>{t("detail.signers")}</h2>
      <SignerChanges>
        <div className="table-scroll">
          <table className="table table-stack" data-testid="signers-table">
            <thead>
              <tr>
                <th>#</th><th>{t("detail.signerId")}</th><th>{t("detail.contact")}</th><th>{t("processes.status")}</th>
                <th>{t("detail.signedAt")}</th><th>{t("detail.facial")}</th><th>{t("identity.level")}</th>
                {canModify && <th>{t("common.actions")}</th>}
              </tr>
            </thead>
            <tbody>
              {detail.signers.map((s) => {
                const facial = s.signData.facial;
                const score = detail.facialScores[s.id];
                return (
                  <tr key={s.id} data-signer={`${s.nat}:${s.docId}`}>
                    <td data-label="#">{s.position + 1}</td>
                    <td data-label={t("detail.signerId")}>
                      <code>{s.nat}:{s.docId}</code>
                      {s.signerAlias && <div className="muted">{s.signerAlias}</div>}
                      {s.pinfo && (s.pinfo.given_name || s.pinfo.family_name) && <div>{s.pinfo.given_name} {s.pinfo.family_name}</div>}
                    </td>
                    <td data-label={t("detail.contact")}>{s.contactInfo ? `${s.contactInfo.type === "email" ? "✉" : "WhatsApp"} ${s.contactInfo.value}` : "—"}</td>
                    <td data-label={t("processes.status")}>
                      <ProcessStatusBadge status={s.status} label={t(`signerStatus.${s.status}`)} />
                      {s.lockedAt && s.status === "pending" && (
                        <div className="stack-tight" data-testid="signer-locked">
                          <span className="badge badge-rejected">{t("detail.locked")}</span>
                          {canUnlock && <UnlockSignerButton processId={detail.process.id} signerId={s.id} label={`${s.nat}:${s.docId}`} locale={locale} />}
                        </div>
                      )}
                    </td>
                    <td data-label={t("detail.signedAt")}>{s.signedAt ? formatDateTime(s.signedAt, locale, timeZone) : "—"}</td>
                    <td data-label={t("detail.facial")}>
                      {facial ? (
                        <>
                          <span className={facial.result ? "badge badge-signed" : "badge badge-rejected"}>{facial.result ? t("detail.facialOk") : t("detail.facialFail")}</span>
                          {score !== undefined && <span className="muted"> {t("detail.score")} {score.toFixed(3)}</span>}
                          {showSelfie && facial.selfie && (
                            <div><a href={`/api/dashboard/selfies/${s.id}`} target="_blank" rel="noreferrer">{t("detail.selfie")}</a></div>
                          )}
                        </>
                      ) : s.signChallenges.includes("facial") ? t("detail.facialPending") : "—"}
                    </td>
                    <td data-label={t("identity.level")} data-testid="identity-level">{identityCell(s, t)}</td>
                    {canModify && (
                      <td data-label={t("common.actions")}>
                        {s.status === "pending" ? (
                          <SignerRowActions
                            processId={detail.process.id}
                            signer={modifiableSigner(s, detail.documents.length)}
                            removable={detail.signers.length > 1}
                            concludes={pendingCount === 1 && detail.signers.length > 1}
                            locale={locale}
                          />
                        ) : "—"}
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </SignerChanges>
    </section>
  );
}

/** The level the signature carries (sign_data.identity), else the one proven so far, else "under review". */
function identityCell(signer: ProcessDetail["signers"][number], t: (key: MessageKey) => string) {
  const identity = signer.signData.identity ?? signer.identity;
  if (identity) {
    return (
      <>
        <span className="badge" data-level={identity.level}>{t(`identity.level.${identity.level}` as MessageKey)}</span>
        {identity.reviewedBy && <div className="muted">{identity.reviewedBy}</div>}
      </>
    );
  }
  if (signer.signChallenges.includes("facial") && signer.signData.facial?.result) return <span className="badge" data-level="pending">{t("identity.level.pending")}</span>;
  return "—";
}
