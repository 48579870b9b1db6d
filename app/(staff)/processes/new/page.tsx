import { requireStaffPage } from "@/lib/http/require-staff-page";
import { getTranslator } from "@/lib/i18n/get-translator";
import { getServices } from "@/lib/runtime/services";
import { getOrganizationSettings } from "@/lib/organizations/get-organization-settings";
import { listLabels } from "@/lib/labels/list-labels";
import { describeIdentityProvider } from "@/lib/identity-assurance/eid/find-identity-provider";
import { NewProcessForm } from "@/components/processes/new-process-form";

export const dynamic = "force-dynamic";

export default async function NewProcessPage() {
  const staff = await requireStaffPage("processes:create");
  const { t, locale } = await getTranslator();
  const { db, config } = await getServices();
  const [organization, labels, identityProvider] = await Promise.all([
    getOrganizationSettings({ organizationId: staff.organizationId }, db),
    listLabels({ organizationId: staff.organizationId, query: { limit: 100 } }, db),
    describeIdentityProvider({ organizationId: staff.organizationId }, db),
  ]);
  const names = [...new Set(labels.body.labels.map((l) => l.label))].sort();
  return (
    <div className="stack">
      <h1>{t("nav.newProcess")}</h1>
      <NewProcessForm locale={locale} maxUploadMb={config.maxUploadBytes / 1024 / 1024} nationalities={organization.enabledNationalities} labels={names} eidProvider={identityProvider?.displayName ?? null} />
    </div>
  );
}
