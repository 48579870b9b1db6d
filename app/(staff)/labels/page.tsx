import Link from "next/link";
import { requireStaffPage } from "@/lib/http/require-staff-page";
import { can } from "@/lib/auth/roles";
import { getTranslator } from "@/lib/i18n/get-translator";
import { getServices } from "@/lib/runtime/services";
import { listLabels } from "@/lib/labels/list-labels";
import { ZListLabelsQuery } from "@/lib/labels/schemas";
import { CreateLabelForm } from "@/components/labels/create-label-form";
import { LabelRowActions } from "@/components/labels/label-row-actions";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | undefined>> };

export default async function LabelsPage({ searchParams }: Props) {
  const staff = await requireStaffPage("labels:read");
  const { t, locale } = await getTranslator();
  const { after, limit } = await searchParams;
  const decoded = after ? Buffer.from(after, "base64url").toString("utf8") : undefined;
  const parsed = ZListLabelsQuery.safeParse({ limit: limit ?? "20", last_item: decoded });
  const query = parsed.success ? parsed.data : ZListLabelsQuery.parse({});
  const { db } = await getServices();
  const page = await listLabels({ organizationId: staff.organizationId, query }, db);
  const writable = can(staff.role, "labels:write");
  const next = page.body.last_item ? Buffer.from(JSON.stringify(page.body.last_item)).toString("base64url") : null;
  const sizeParam = limit ? `&limit=${encodeURIComponent(limit)}` : "";
  return (
    <div className="stack">
      <h1>{t("nav.labels")}</h1>
      {writable && <CreateLabelForm locale={locale} />}
      <section className="card">
        {page.body.labels.length === 0 ? (
          <p className="muted">{t("labels.empty")}</p>
        ) : (
          <div className="table-scroll">
            <table className="table table-stack" data-testid="labels-table">
              <thead><tr><th>{t("labels.name")}</th><th>{t("labels.owner")}</th>{writable && <th><span className="visually-hidden">{t("common.actions")}</span></th>}</tr></thead>
              <tbody>
                {page.body.labels.map((l) => (
                  <tr key={`${l.usr_id}/${l.label}`} data-testid="label-row" data-label={l.label}>
                    <td data-label={t("labels.name")}><Link href={`/processes?label=${encodeURIComponent(l.label)}`}>{l.label}</Link></td>
                    <td className="muted" data-label={t("labels.owner")}>{l.usr_id}</td>
                    {writable && <td data-label=""><LabelRowActions label={l.label} owner={l.usr_id} locale={locale} /></td>}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <nav className="pager" aria-label={t("processes.paging")}>
          {after && <Link href={`/labels${limit ? `?limit=${encodeURIComponent(limit)}` : ""}`}>{t("processes.firstPage")}</Link>}
          {next && <Link href={`/labels?after=${next}${sizeParam}`} data-testid="next-page">{t("processes.nextPage")}</Link>}
        </nav>
      </section>
    </div>
  );
}
