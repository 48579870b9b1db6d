import { requireStaffPage } from "@/lib/http/require-staff-page";
import { getTranslator } from "@/lib/i18n/get-translator";
import { getServices } from "@/lib/runtime/services";
import { getOrganizationSettings } from "@/lib/organizations/get-organization-settings";
import { StampSignForm } from "@/components/stamp/stamp-sign-form";
import { TimeStampForm } from "@/components/stamp/time-stamp-form";
import { StampTransactionsTable } from "@/components/stamp/stamp-transactions-table";
import { listStampTransactions } from "@/lib/stamp-signing/list-stamp-transactions";

export const dynamic = "force-dynamic";

export default async function StampPage() {
  const staff = await requireStaffPage("stamp:sign");
  const { t, locale } = await getTranslator();
  const { db, config } = await getServices();
  const organization = await getOrganizationSettings({ organizationId: staff.organizationId }, db);
  const recent = await listStampTransactions({ organizationId: staff.organizationId }, db);
  return (
    <div className="stack">
      <h1>{t("nav.stamp")}</h1>
      <StampSignForm locale={locale} maxUploadMb={config.maxUploadBytes / 1024 / 1024} nationality={organization.enabledNationalities[0] ?? "PER"} />
      <section className="card stack">
        <h2>{t("stamp.timeStamp")}</h2>
        <TimeStampForm locale={locale} />
      </section>
      <StampTransactionsTable rows={recent} t={t} locale={locale} timeZone={staff.organizationTimeZone} />
    </div>
  );
}
