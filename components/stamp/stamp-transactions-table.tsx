import { formatDateTime } from "@/components/processes/format-date-time";
import { fillMessage } from "@/lib/i18n/fill-message";
import type { Locale, MessageKey } from "@/lib/i18n/messages";
import type { StampTransactionRow } from "@/lib/stamp-signing/list-stamp-transactions";

const statusBadge = { pending: "pending", done: "signed", failed: "rejected" } as const;
const signTypes = ["agente", "digital", "otp"] as const;

type Props = { rows: StampTransactionRow[]; t: (key: MessageKey) => string; locale: Locale; timeZone: string };

/** The organization's recent stamp signatures with the PAdES level each output reached. */
export function StampTransactionsTable({ rows, t, locale, timeZone }: Props) {
  const typeLabel = (signType: string | null) => {
    const type = signType ?? "agente";
    return (signTypes as readonly string[]).includes(type) ? t(`stamp.type.${type}` as MessageKey) : type;
  };
  return (
    <section className="card stack" aria-labelledby="recent-stamps">
      <h2 id="recent-stamps">{t("stamp.recent")}</h2>
      <p className="muted">{fillMessage(t("stamp.recentHelp"), { zone: timeZone })}</p>
      {rows.length === 0 ? (
        <p className="muted" data-testid="stamp-transactions-empty">{t("stamp.recentEmpty")}</p>
      ) : (
        <div className="table-scroll">
          <table className="table table-stack" data-testid="stamp-transactions">
            <thead>
              <tr>
                <th>{t("stamp.when")}</th>
                <th>{t("stamp.signerColumn")}</th>
                <th>{t("stamp.typeColumn")}</th>
                <th>{t("stamp.statusColumn")}</th>
                <th>{t("stamp.level")}</th>
                <th>tx_token</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.txToken} data-testid="stamp-transaction" data-tx-token={row.txToken}>
                  <td data-label={t("stamp.when")}>{formatDateTime(row.createdAt, locale, timeZone)}</td>
                  <td data-label={t("stamp.signerColumn")}>{row.signerName ? <span data-user-content>{row.signerName}</span> : <span className="muted">{t("stamp.noSigner")}</span>}</td>
                  <td data-label={t("stamp.typeColumn")}>{typeLabel(row.signType)}</td>
                  <td data-label={t("stamp.statusColumn")}>
                    <span className={`badge badge-${statusBadge[row.status]}`} data-status={row.status}>{t(`stamp.status.${row.status}`)}</span>
                  </td>
                  <td data-label={t("stamp.level")}>
                    {row.padesLevel ? (
                      <span className="badge" data-testid="stamp-pades-level" title={t("stamp.levelHelp")}>PAdES {row.padesLevel}</span>
                    ) : (
                      <span className="muted">{row.status === "done" ? t("stamp.levelUnknown") : "—"}</span>
                    )}
                  </td>
                  <td data-label="tx_token"><code>{row.txToken}</code></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
