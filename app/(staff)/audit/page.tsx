import Link from "next/link";
import { z } from "zod";
import { requireStaffPage } from "@/lib/http/require-staff-page";
import { getTranslator } from "@/lib/i18n/get-translator";
import { getServices } from "@/lib/runtime/services";
import { listAuditEvents } from "@/lib/audit/list-audit-events";
import { verifyAuditChain } from "@/lib/audit/verify-audit-chain";
import { formatDateTime } from "@/components/processes/format-date-time";
import { auditActionMessages } from "@/lib/audit/audit-action-messages";
import type { AuditAction } from "@/lib/audit/record-audit-event";

export const dynamic = "force-dynamic";

const ZAuditQuery = z.object({ before: z.coerce.number().int().positive().optional() });

/** The organization's audit log, newest first, and whether its hash chain still verifies. */
export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaffPage("audit:read");
  const { t, locale } = await getTranslator();
  const { db } = await getServices();
  const query = ZAuditQuery.safeParse(await searchParams);
  const before = query.success ? query.data.before : undefined;
  const [page, chain] = await Promise.all([
    listAuditEvents({ organizationId: staff.organizationId, before, limit: 50 }, db),
    verifyAuditChain({ organizationId: staff.organizationId }, db),
  ]);
  return (
    <div className="stack">
      <h1>{t("nav.audit")}</h1>
      {chain.intact ? (
        <div className="notice" role="status" data-testid="audit-chain">
          <p>{t("audit.intact").replace("{n}", String(chain.entries))}</p>
        </div>
      ) : (
        <div className="alert" role="alert" data-testid="audit-chain">
          {t("audit.broken")
            .replace("{id}", String(chain.brokenAt.id))
            .replace("{reason}", t(`audit.reason.${chain.brokenAt.reason}`))
            .replace("{n}", String(chain.entries))}
        </div>
      )}
      <section className="card">
        {page.entries.length === 0 ? (
          <p className="muted">{t("audit.empty")}</p>
        ) : (
          <table className="table table-stack">
            <thead>
              <tr><th>#</th><th>{t("audit.time")}</th><th>{t("audit.actor")}</th><th>{t("audit.action")}</th><th>{t("audit.target")}</th></tr>
            </thead>
            <tbody>
              {page.entries.map((entry) => (
                <tr key={entry.id} data-testid="audit-row">
                  <td data-label="#" className="muted">{entry.id}</td>
                  <td data-label={t("audit.time")}>{formatDateTime(entry.occurredAt, locale, staff.organizationTimeZone)}</td>
                  <td data-label={t("audit.actor")} className="cell-clip">{entry.actor}</td>
                  <td data-label={t("audit.action")} title={entry.action}>{auditActionMessages[locale][entry.action as AuditAction] ?? entry.action}</td>
                  <td data-label={t("audit.target")} className="cell-clip">{entry.target || "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <nav className="pager" aria-label={t("processes.paging")}>
          {before !== undefined && <Link href="/audit">{t("audit.newest")}</Link>}
          {page.nextCursor !== null && <Link href={`/audit?before=${page.nextCursor}`} data-testid="audit-older">{t("audit.older")}</Link>}
        </nav>
      </section>
    </div>
  );
}
