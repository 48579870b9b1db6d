import Link from "next/link";
import { requireStaffPage } from "@/lib/http/require-staff-page";
import { getTranslator } from "@/lib/i18n/get-translator";
import { getServices } from "@/lib/runtime/services";
import { processStatuses } from "@/db/schema";
import { findProcessPage } from "@/lib/processes/find-process-page";
import { encodeCursor, parseDashboardFilters } from "@/lib/processes/parse-dashboard-filters";
import { ProcessStatusBadge } from "@/components/processes/process-status-badge";
import { formatDateTime } from "@/components/processes/format-date-time";
import { fillMessage } from "@/lib/i18n/fill-message";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ProcessesPage({ searchParams }: Props) {
  const staff = await requireStaffPage("processes:read");
  const { t, locale } = await getTranslator();
  const { form, query, filters } = parseDashboardFilters(await searchParams, staff.organizationTimeZone);
  const { db } = await getServices();
  const { records, next } = await findProcessPage({ organizationId: staff.organizationId, query, filters }, db);
  const keep = Object.fromEntries(Object.entries(form).filter(([k, v]) => k !== "after" && v !== undefined).map(([k, v]) => [k, String(v)]));
  const nextHref = next ? `/processes?${new URLSearchParams({ ...keep, after: encodeCursor(next) })}` : null;
  return (
    <div className="stack">
      <div className="page-head">
        <h1>{t("processes.title")}</h1>
        <Link className="button" href="/processes/new">{t("nav.newProcess")}</Link>
      </div>
      <form className="card filters" method="get" aria-label={t("processes.filters")}>
        <div>
          <label htmlFor="f-status">{t("processes.status")}</label>
          <select id="f-status" name="status" defaultValue={form.status ?? ""}>
            <option value="">{t("processes.any")}</option>
            {processStatuses.map((s) => <option key={s} value={s}>{t(`status.${s}`)}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor="f-from">{t("processes.from")}</label>
          <input id="f-from" type="date" name="from" defaultValue={form.from} />
        </div>
        <div>
          <label htmlFor="f-to">{t("processes.to")}</label>
          <input id="f-to" type="date" name="to" defaultValue={form.to} />
        </div>
        <div>
          <label htmlFor="f-label">{t("processes.label")}</label>
          <input id="f-label" type="text" name="label" defaultValue={form.label} />
        </div>
        <div>
          <label htmlFor="f-doc">{t("processes.signerDocId")}</label>
          <input id="f-doc" type="text" name="doc_id" inputMode="numeric" defaultValue={form.doc_id} />
        </div>
        {form.limit && <input type="hidden" name="limit" value={form.limit} />}
        <p className="muted filters-note" data-testid="zone-note">{fillMessage(t("processes.zoneNote"), { zone: staff.organizationTimeZone })}</p>
        <div className="filters-actions">
          <button className="button" type="submit">{t("processes.filter")}</button>
          <Link href="/processes">{t("processes.clear")}</Link>
        </div>
      </form>
      <section className="card">
        {records.length === 0 ? (
          <p className="muted" data-testid="processes-empty">{t("processes.empty")}</p>
        ) : (
          <div className="table-scroll">
            <table className="table table-stack" data-testid="processes-table">
              <thead>
                <tr>
                  <th>{t("processes.created")}</th>
                  <th>{t("processes.status")}</th>
                  <th>{t("processes.description")}</th>
                  <th>{t("processes.signers")}</th>
                  <th>{t("processes.expires")}</th>
                  <th>{t("processes.labels")}</th>
                </tr>
              </thead>
              <tbody>
                {records.map(({ process, signers }) => (
                  <tr key={process.id} data-testid="process-row" data-process-id={process.id}>
                    <td data-label={t("processes.created")}><Link href={`/processes/${encodeURIComponent(process.id)}`}>{formatDateTime(process.createdAt, locale, staff.organizationTimeZone)}</Link></td>
                    <td data-label={t("processes.status")}><ProcessStatusBadge status={process.status} label={t(`status.${process.status}`)} /></td>
                    <td className="cell-clip" data-label={t("processes.description")}>{process.description || <span className="muted">{process.id.slice(0, 12)}…</span>}</td>
                    <td data-label={t("processes.signers")}>{signers.filter((s) => s.status === "signed").length}/{signers.length}</td>
                    <td data-label={t("processes.expires")}>{formatDateTime(process.expireAt, locale, staff.organizationTimeZone)}</td>
                    <td data-label={t("processes.labels")}>{process.labels.map((l) => <span key={l} className="badge">{l}</span>)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <nav className="pager" aria-label={t("processes.paging")}>
          {form.after && <Link href={`/processes?${new URLSearchParams(keep)}`}>{t("processes.firstPage")}</Link>}
          {nextHref && <Link href={nextHref} data-testid="next-page">{t("processes.nextPage")}</Link>}
        </nav>
      </section>
    </div>
  );
}
