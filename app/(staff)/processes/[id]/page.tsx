import { notFound } from "next/navigation";
import { requireStaffPage } from "@/lib/http/require-staff-page";
import { can } from "@/lib/auth/roles";
import { getTranslator } from "@/lib/i18n/get-translator";
import { getServices } from "@/lib/runtime/services";
import { isAppError } from "@/lib/errors";
import { getProcessDetail } from "@/lib/processes/get-process-detail";
import { OPEN_STATUSES } from "@/lib/processes/conclude-process";
import { listCallbackDeliveries } from "@/lib/callbacks/list-callback-deliveries";
import { ProcessStatusBadge } from "@/components/processes/process-status-badge";
import { ProcessActions } from "@/components/processes/process-actions";
import { SignersTable } from "@/components/processes/signers-table";
import { EditDescriptionForm } from "@/components/processes/edit-description-form";
import { ProcessTimeline } from "@/components/processes/process-timeline";
import { CallbackLog } from "@/components/processes/callback-log";
import { formatDateTime } from "@/components/processes/format-date-time";
import { fillMessage } from "@/lib/i18n/fill-message";
import { signedPageCount } from "@/lib/processes/count-document-pages";

export const dynamic = "force-dynamic";

export default async function ProcessDetailPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaffPage("processes:read");
  const processId = decodeURIComponent((await params).id);
  const { t, locale } = await getTranslator();
  const { db } = await getServices();
  const detail = await getProcessDetail({ organizationId: staff.organizationId, processId }, db).catch((error) => {
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    throw error;
  });
  const deliveries = await listCallbackDeliveries({ organizationId: staff.organizationId, processId }, db);
  const { process, documents } = detail;
  const open = (OPEN_STATUSES as readonly string[]).includes(process.status);
  const canModify = open && can(staff.role, "processes:modify");
  return (
    <div className="stack">
      <div className="page-head">
        <h1>{t("detail.title")}</h1>
        <ProcessStatusBadge status={process.status} label={t(`status.${process.status}`)} />
      </div>
      <section className="card">
        <dl className="facts">
          <dt>{t("detail.id")}</dt><dd><code data-testid="process-id">{process.id}</code></dd>
          <dt>{t("processes.description")}</dt><dd>{process.description || "—"}</dd>
          <dt>{t("processes.created")}</dt><dd>{formatDateTime(process.createdAt, locale, staff.organizationTimeZone)} · {process.createdByName}</dd>
          <dt>{t("processes.expires")}</dt><dd>{formatDateTime(process.expireAt, locale, staff.organizationTimeZone)}</dd>
          {process.padesLevel && (<><dt>{t("detail.padesLevel")}</dt><dd><span className="badge" data-testid="pades-level" title={t("detail.padesLevelHelp")}>PAdES {process.padesLevel}</span></dd></>)}
          <dt>{t("detail.signOrder")}</dt><dd>{process.signOrder ? t("common.yes") : t("common.no")}</dd>
          <dt>{t("processes.labels")}</dt><dd>{process.labels.length ? process.labels.map((l) => <span key={l} className="badge">{l}</span>) : "—"}</dd>
          <dt>{t("detail.callback")}</dt><dd>{process.urlCallback || "—"}</dd>
        </dl>
      </section>
      {open && (can(staff.role, "processes:notify") || can(staff.role, "processes:reject")) && (
        <section className="card">
          <ProcessActions processId={process.id} canNotify={can(staff.role, "processes:notify")} canReject={can(staff.role, "processes:reject")} locale={locale} />
        </section>
      )}
      {canModify && (
        <section className="card stack" data-testid="modify-process">
          <h2>{t("modify.title")}</h2>
          <p className="muted">{t("modify.help")} {t("modify.noAdd")}</p>
          <EditDescriptionForm processId={process.id} description={process.description} locale={locale} />
        </section>
      )}
      <section className="card">
        <h2>{t("detail.documents")}</h2>
        <ul className="doc-list">
          {documents.map((d) => (
            <li key={d.id}>
              <span>
                {d.name} <span className="muted" data-testid="page-count">({d.pages} {t("detail.pages")}{d.stampPageAppended && <>; {fillMessage(t("detail.signedPages"), { pages: signedPageCount(d) })}</>})</span>
              </span>
              <a href={`/api/dashboard/documents/${d.id}?version=original`} download>{t("detail.original")}</a>
              {d.currentBlobKey !== d.originalBlobKey && <a href={`/api/dashboard/documents/${d.id}?version=current`} download>{t("detail.signed")}</a>}
            </li>
          ))}
        </ul>
        <p>
          <a href={`/api/dashboard/processes/${encodeURIComponent(process.id)}/evidence`} download data-testid="evidence-summary">
            {t("detail.evidence")}
          </a>
        </p>
      </section>
      <SignersTable detail={detail} showSelfie={can(staff.role, "biometrics:read")} canModify={canModify} canUnlock={open && can(staff.role, "identity:review")} t={t} locale={locale} timeZone={staff.organizationTimeZone} />
      <ProcessTimeline events={detail.events} signers={detail.signers} t={t} locale={locale} timeZone={staff.organizationTimeZone} />
      <CallbackLog processId={process.id} hasCallback={!!process.urlCallback} deliveries={deliveries} canRedeliver={can(staff.role, "processes:notify")} t={t} locale={locale} timeZone={staff.organizationTimeZone} />
    </div>
  );
}
