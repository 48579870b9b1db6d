import { requireStaffPage } from "@/lib/http/require-staff-page";
import { can } from "@/lib/auth/roles";
import { getTranslator } from "@/lib/i18n/get-translator";
import { getServices } from "@/lib/runtime/services";
import { getOrganizationSettings } from "@/lib/organizations/get-organization-settings";
import { listStampApiUsers } from "@/lib/organizations/list-stamp-api-users";
import { listCredentials } from "@/lib/credentials/list-credentials";
import { listDevMailbox } from "@/lib/notifications/list-dev-mailbox";
import { SettingsForm } from "@/components/organization/settings-form";
import { AddStaffForm } from "@/components/organization/add-staff-form";
import { RemoveStaffButton } from "@/components/organization/remove-staff-button";
import { ResetPasswordForm } from "@/components/organization/reset-password-form";
import { formatDateTime } from "@/components/processes/format-date-time";
import { selectableTimeZones } from "@/lib/i18n/time-zones";
import { roleName } from "@/lib/i18n/role-names";
import { describeIdentityProvider } from "@/lib/identity-assurance/eid/find-identity-provider";
import { eidRedirectUri } from "@/lib/signers/eid-login-cookie";
import { IdentityProviderForm } from "@/components/organization/identity-provider-form";

export const dynamic = "force-dynamic";

export default async function OrganizationPage() {
  const staff = await requireStaffPage("staff:manage");
  const owner = can(staff.role, "organization:manage");
  const { t, locale } = await getTranslator();
  const { db, config } = await getServices();
  const devMailbox = !config.SMTP_URL;
  const [organization, members, credentials, mailbox, identityProvider] = await Promise.all([
    getOrganizationSettings({ organizationId: staff.organizationId }, db),
    listStampApiUsers({ organizationId: staff.organizationId }, db),
    owner ? listCredentials({ organizationId: staff.organizationId }, db) : Promise.resolve([]),
    devMailbox ? listDevMailbox({ organizationId: staff.organizationId, limit: 20 }, db) : Promise.resolve([]),
    describeIdentityProvider({ organizationId: staff.organizationId }, db),
  ]);
  // the removal dialog lists the active credentials each person created (they saw those secrets)
  const createdBy = new Map<string, { id: string; clientname: string }[]>();
  for (const c of credentials) {
    if (c.revokedAt || !c.createdByUserId) continue;
    createdBy.set(c.createdByUserId, [...(createdBy.get(c.createdByUserId) ?? []), { id: c.id, clientname: c.clientname }]);
  }
  return (
    <div className="stack">
      <h1>{t("nav.organization")}: {organization.displayName}</h1>
      <SettingsForm
        locale={locale}
        editable={owner}
        timeZones={selectableTimeZones()}
        initial={{
          linkMode: organization.linkMode,
          requireApproval: organization.requireApproval,
          enabledNationalities: organization.enabledNationalities as ("PER" | "CHL" | "PERPASS" | "PERCE")[],
          timeZone: organization.timeZone,
          identityReviewRequired: organization.identityReviewRequired,
        }}
        privateCallbacks={organization.allowPrivateCallbacks}
      />
      <IdentityProviderForm locale={locale} editable={can(staff.role, "staff:manage")} redirectUri={eidRedirectUri(config.publicUrl)} initial={identityProvider && {
        displayName: identityProvider.displayName,
        issuer: identityProvider.issuer,
        clientId: identityProvider.clientId,
        scopes: identityProvider.scopes,
        documentNumberClaim: identityProvider.documentNumberClaim,
        givenNameClaim: identityProvider.givenNameClaim,
        familyNameClaim: identityProvider.familyNameClaim,
      }} />
      <section className="card stack">
        <h2>{t("org.staff")}</h2>
        <div className="table-scroll">
          <table className="table table-stack" data-testid="staff-table">
            <thead><tr><th>{t("login.email")}</th><th>{t("api.role")}</th><th>{t("processes.status")}</th>{owner && <th><span className="visually-hidden">{t("common.actions")}</span></th>}</tr></thead>
            <tbody>
              {members.map((m) => (
                <tr key={m.id} data-testid="staff-row" data-email={m.email}>
                  <td data-label={t("login.email")}>{m.email}</td>
                  <td data-label={t("api.role")}>{roleName(m.role, t)}</td>
                  <td data-label={t("processes.status")}>{m.disabled ? <span className="badge badge-suspended">{t("api.disabled")}</span> : <span className="badge badge-active">{t("api.active")}</span>}</td>
                  {owner && (
                    <td data-label="">
                      {m.id !== staff.userId && (
                        <>
                          {!m.disabled && <ResetPasswordForm userId={m.id} email={m.email} locale={locale} />}
                          <RemoveStaffButton userId={m.id} email={m.email} removed={m.disabled} credentials={createdBy.get(m.id) ?? []} domain={staff.organizationDomain} locale={locale} />
                        </>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {owner && <AddStaffForm locale={locale} />}
      </section>
      {devMailbox && (
        <section className="card stack" data-testid="dev-mailbox">
          <h2>{t("org.devMailbox")}</h2>
          <p className="muted">{t("org.devMailboxHelp")}</p>
          {mailbox.length === 0 && <p className="muted">{t("org.mailboxEmpty")}</p>}
          {mailbox.map((m) => (
            <details key={m.id} className="mail">
              <summary>
                <span className="badge">{m.channel}</span> {m.recipient} · {m.subject || "—"} <span className="muted">· {formatDateTime(m.createdAt, locale, staff.organizationTimeZone)}</span>
              </summary>
              <pre className="mail-body">{m.body}</pre>
            </details>
          ))}
        </section>
      )}
    </div>
  );
}
