import { requireStaffPage } from "@/lib/http/require-staff-page";
import { getTranslator } from "@/lib/i18n/get-translator";
import { getServices } from "@/lib/runtime/services";
import { listCredentials } from "@/lib/credentials/list-credentials";
import { listStampApiUsers } from "@/lib/organizations/list-stamp-api-users";
import { getOrganizationSettings } from "@/lib/organizations/get-organization-settings";
import { CreateCredentialForm } from "@/components/api-access/create-credential-form";
import { CredentialRowActions } from "@/components/api-access/credential-row-actions";
import { CallbackSecretCard } from "@/components/api-access/callback-secret-card";
import { formatDateTime } from "@/components/processes/format-date-time";
import { roleName } from "@/lib/i18n/role-names";
import { TokenNote } from "@/components/api-access/token-note";
import { can } from "@/lib/auth/roles";

export const dynamic = "force-dynamic";

export default async function ApiAccessPage() {
  const staff = await requireStaffPage("credentials:manage");
  const { t, locale } = await getTranslator();
  const { db, config } = await getServices();
  const [credentials, stampUsers, organization] = await Promise.all([
    listCredentials({ organizationId: staff.organizationId }, db),
    listStampApiUsers({ organizationId: staff.organizationId }, db),
    getOrganizationSettings({ organizationId: staff.organizationId }, db),
  ]);
  const mayGrant = can(staff.role, "identity:registry");
  const when = (d: Date | null | undefined) => (d ? formatDateTime(d, locale, staff.organizationTimeZone) : "—");
  return (
    <div className="stack">
      <h1>{t("nav.apiAccess")}</h1>
      <TokenNote publicUrl={config.publicUrl} domain={staff.organizationDomain} t={t} />
      <section className="card">
        <h2>{t("api.credentials")}</h2>
        <p className="muted">{t("api.credentialsHelp")}</p>
        <div className="table-scroll">
          <table className="table table-stack" data-testid="credentials-table">
            <thead><tr><th>clientname</th><th>{t("api.role")}</th><th>{t("api.lastUsed")}</th><th>{t("processes.status")}</th><th><span className="visually-hidden">{t("common.actions")}</span></th></tr></thead>
            <tbody>
              {credentials.map((c) => (
                <tr key={c.id} data-testid="credential-row" data-clientname={c.clientname}>
                  <td data-label="clientname"><code>{c.clientname}</code></td>
                  <td data-label={t("api.role")}>{roleName(c.role, t)}</td>
                  <td data-label={t("api.lastUsed")}>{when(c.lastUsedAt)}</td>
                  <td data-label={t("processes.status")}>{c.revokedAt ? <span className="badge badge-rejected">{t("api.revoked")}</span> : <span className="badge badge-active">{t("api.active")}</span>}</td>
                  <td data-label="">{!c.revokedAt && <CredentialRowActions credentialId={c.id} clientname={c.clientname} role={c.role} grants={c.grants} mayGrant={mayGrant} locale={locale} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <CreateCredentialForm locale={locale} domain={staff.organizationDomain} mayGrant={mayGrant} />
      <section className="card">
        <h2>{t("api.stampUsers")}</h2>
        <p className="muted">{t("api.stampUsersHelp")}</p>
        <div className="table-scroll">
          <table className="table table-stack" data-testid="stamp-users-table">
            <thead><tr><th>{t("login.email")}</th><th>{t("api.role")}</th><th>{t("api.tokenV2")}</th><th>{t("api.tokenV3")}</th></tr></thead>
            <tbody>
              {stampUsers.map((u) => (
                <tr key={u.id}>
                  <td data-label={t("login.email")}>{u.email} {u.disabled && <span className="badge badge-suspended">{t("api.disabled")}</span>}</td>
                  <td data-label={t("api.role")}>{roleName(u.role, t)}</td>
                  <td data-label={t("api.tokenV2")}>{when(u.issued.v2)}</td>
                  <td data-label={t("api.tokenV3")}>{when(u.issued.v3)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <CallbackSecretCard locale={locale} version={organization.callbackSecretVersion} source={config.SECRET_KEY ? "env" : "data-dir"} />
    </div>
  );
}
