import type { CallbackDelivery } from "@/lib/callbacks/list-callback-deliveries";
import type { MessageKey } from "@/lib/i18n/messages";
import { formatDateTime } from "./format-date-time";
import { RedeliverButton } from "./redeliver-button";

type Props = { processId: string; hasCallback: boolean; deliveries: CallbackDelivery[]; canRedeliver: boolean; t: (key: MessageKey) => string; locale: string; timeZone: string };

/** Every callback job of the process (outbox callback.deliver) and each attempt's outcome. */
export function CallbackLog({ processId, hasCallback, deliveries, canRedeliver, t, locale, timeZone }: Props) {
  return (
    <section className="card" data-testid="callback-log">
      <h2>{t("detail.callbackLog")}</h2>
      {!hasCallback && <p className="muted">{t("detail.noCallback")}</p>}
      {hasCallback && deliveries.length === 0 && <p className="muted">{t("detail.noDeliveries")}</p>}
      {deliveries.length > 0 && (
        <div className="table-scroll">
          <table className="table table-stack">
            <thead>
              <tr><th>{t("detail.job")}</th><th>{t("processes.status")}</th><th>{t("detail.attempts")}</th><th>{t("detail.lastError")}</th></tr>
            </thead>
            <tbody>
              {deliveries.map((job) => (
                <tr key={job.id}>
                  <td data-label={t("detail.job")}>#{job.id}<div className="muted">{formatDateTime(job.createdAt, locale, timeZone)}</div></td>
                  <td data-label={t("processes.status")}><span className={`badge badge-job-${job.status}`} data-status={job.status}>{t(`job.${job.status}`)}</span></td>
                  <td data-label={t("detail.attempts")}>
                    {job.log.length === 0 ? "—" : (
                      <ul className="attempts">
                        {job.log.map((a) => (
                          <li key={a.id} data-outcome={a.outcome}>{a.attempt}. {t(`attempt.${a.outcome}`)} · <code>{a.detail}</code> · {a.durationMs ?? "?"} ms · {formatDateTime(a.createdAt, locale, timeZone)}</li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td className="cell-clip" data-label={t("detail.lastError")}>{job.lastError ? <code>{job.lastError}</code> : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {hasCallback && canRedeliver && <RedeliverButton processId={processId} label={t("detail.redeliver")} />}
    </section>
  );
}
