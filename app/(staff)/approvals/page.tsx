import Link from "next/link";
import { requireStaffPage } from "@/lib/http/require-staff-page";
import { getTranslator } from "@/lib/i18n/get-translator";
import { getServices } from "@/lib/runtime/services";
import { findProcessPage } from "@/lib/processes/find-process-page";
import { ZListProcessesQuery } from "@/lib/processes/schemas";
import { ApproveButton } from "@/components/processes/approve-button";
import { formatDateTime } from "@/components/processes/format-date-time";

export const dynamic = "force-dynamic";

/** Processes waiting for approval (organizations that require it); approving issues their links. */
export default async function ApprovalsPage() {
  const staff = await requireStaffPage("processes:approve");
  const { t, locale } = await getTranslator();
  const { db } = await getServices();
  const query = ZListProcessesQuery.parse({ status: "approval_pending", limit: 50 });
  const { records } = await findProcessPage({ organizationId: staff.organizationId, query }, db);
  return (
    <div className="stack">
      <h1>{t("nav.approvals")}</h1>
      <section className="card">
        {records.length === 0 ? <p className="muted" data-testid="approvals-empty">{t("approvals.empty")}</p> : (
          <table className="table table-stack">
            <thead><tr><th>{t("processes.created")}</th><th>{t("processes.description")}</th><th>{t("processes.signers")}</th><th><span className="visually-hidden">{t("common.actions")}</span></th></tr></thead>
            <tbody>
              {records.map(({ process, signers }) => (
                <tr key={process.id} data-testid="approval-row">
                  <td data-label={t("processes.created")}><Link href={`/processes/${encodeURIComponent(process.id)}`}>{formatDateTime(process.createdAt, locale, staff.organizationTimeZone)}</Link></td>
                  <td data-label={t("processes.description")}>{process.description || "—"} <span className="muted">· {process.createdByName}</span></td>
                  <td data-label={t("processes.signers")}>{signers.length}</td>
                  <td data-label=""><ApproveButton processId={process.id} label={t("approvals.approve")} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
