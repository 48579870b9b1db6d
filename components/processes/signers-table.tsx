import type { ProcessDetail } from "@/lib/processes/get-process-detail";
import type { MessageKey } from "@/lib/i18n/messages";
import { ProcessStatusBadge } from "./process-status-badge";
import { formatDateTime } from "./format-date-time";

type Props = { detail: ProcessDetail; showSelfie: boolean; t: (key: MessageKey) => string; locale: string };

/** Signers with their state and sign_data; the selfie only for roles with biometrics:read. */
export function SignersTable({ detail, showSelfie, t, locale }: Props) {
  return (
    <section className="card">
      <h2>{t("detail.signers")}</h2>
      <div className="table-scroll">
        <table className="table table-stack" data-testid="signers-table">
          <thead>
            <tr>
              <th>#</th><th>{t("detail.signerId")}</th><th>{t("detail.contact")}</th><th>{t("processes.status")}</th>
              <th>{t("detail.signedAt")}</th><th>{t("detail.facial")}</th>
            </tr>
          </thead>
          <tbody>
            {detail.signers.map((s) => {
              const facial = s.signData.facial;
              const score = detail.facialScores[s.id];
              return (
                <tr key={s.id}>
                  <td data-label="#">{s.position + 1}</td>
                  <td data-label={t("detail.signerId")}>
                    <code>{s.nat}:{s.docId}</code>
                    {s.signerAlias && <div className="muted">{s.signerAlias}</div>}
                    {s.pinfo && (s.pinfo.given_name || s.pinfo.family_name) && <div>{s.pinfo.given_name} {s.pinfo.family_name}</div>}
                  </td>
                  <td data-label={t("detail.contact")}>{s.contactInfo ? `${s.contactInfo.type === "email" ? "✉" : "WhatsApp"} ${s.contactInfo.value}` : "—"}</td>
                  <td data-label={t("processes.status")}><ProcessStatusBadge status={s.status} label={t(`signerStatus.${s.status}`)} /></td>
                  <td data-label={t("detail.signedAt")}>{s.signedAt ? formatDateTime(s.signedAt, locale) : "—"}</td>
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
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
