import { requireStaffPage } from "@/lib/http/require-staff-page";
import { can } from "@/lib/auth/roles";
import { getTranslator } from "@/lib/i18n/get-translator";
import { getServices } from "@/lib/runtime/services";
import { listCertificateHolders } from "@/lib/certificates/list-certificate-holders";
import { getAgentCertificate } from "@/lib/certificates/get-agent-certificate";
import { getOrganizationSettings } from "@/lib/organizations/get-organization-settings";
import { listRegistryPhotos } from "@/lib/registry-photos/list-registry-photos";
import { REGISTRY_PHOTO_WRITE, ZListRegistryPhotosQuery } from "@/lib/registry-photos/schemas";
import { EnrollHolderForm } from "@/components/certificates/enroll-holder-form";
import { ImportAgentForm } from "@/components/certificates/import-agent-form";
import { RevokeHolderButton } from "@/components/certificates/revoke-holder-button";
import { RegistryPhotosSection } from "@/components/certificates/registry-photos-section";
import { formatDateTime } from "@/components/processes/format-date-time";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function CertificatesPage({ searchParams }: Props) {
  const staff = await requireStaffPage("certificates:manage");
  const { t, locale } = await getTranslator();
  const { db, config } = await getServices();
  const photoQuery = ZListRegistryPhotosQuery.safeParse({ after: (await searchParams).photos_after });
  const query = photoQuery.success ? photoQuery.data : ZListRegistryPhotosQuery.parse({});
  const [holders, agent, organization, registry] = await Promise.all([
    listCertificateHolders({ organizationId: staff.organizationId }, db),
    getAgentCertificate({ organizationId: staff.organizationId, environment: config.APP_ENV }, db),
    getOrganizationSettings({ organizationId: staff.organizationId }, db),
    listRegistryPhotos({ organizationId: staff.organizationId, query }, db),
  ]);
  return (
    <div className="stack">
      <h1>{t("nav.certificates")}</h1>
      <section className="card stack">
        <h2>{t("certs.holders")}</h2>
        <p className="muted">{t("certs.holdersHelp")}</p>
        {holders.length === 0 ? <p className="muted">{t("certs.noHolders")}</p> : (
          <table className="table table-stack" data-testid="holders-table">
            <thead><tr><th>{t("certs.username")}</th><th>{t("certs.subject")}</th><th>{t("certs.expires")}</th><th>{t("processes.status")}</th><th><span className="visually-hidden">{t("common.actions")}</span></th></tr></thead>
            <tbody>
              {holders.map((h) => (
                <tr key={h.id} data-testid="holder-row" data-username={h.signUsername}>
                  <td data-label={t("certs.username")}><code>{h.signUsername}</code></td>
                  <td data-label={t("certs.subject")}>{h.subject} <span className="muted">({h.source === "pkcs12" ? "PKCS#12" : t("certs.builtIn")})</span></td>
                  <td data-label={t("certs.expires")}>{formatDateTime(h.notAfter, locale, staff.organizationTimeZone)}</td>
                  <td data-label={t("processes.status")}>
                    {h.revokedAt ? <span className="badge badge-rejected">{t("api.revoked")}</span> : isPast(h.notAfter) ? <span className="badge badge-expired">{t("status.expired")}</span> : <span className="badge badge-active">{t("api.active")}</span>}
                  </td>
                  <td data-label="">{!h.revokedAt && <RevokeHolderButton holderId={h.id} username={h.signUsername} locale={locale} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <EnrollHolderForm locale={locale} />
      </section>
      <section className="card stack">
        <h2>{t("certs.agent")}</h2>
        {agent ? (
          <dl className="facts" data-testid="agent-certificate">
            <dt>{t("certs.subject")}</dt><dd>{agent.subject}</dd>
            <dt>{t("certs.issuer")}</dt><dd>{agent.issuerName}</dd>
            <dt>{t("certs.source")}</dt><dd>{agent.source === "pkcs12" ? "PKCS#12" : t("certs.builtIn")}</dd>
            <dt>{t("certs.expires")}</dt><dd>{formatDateTime(agent.notAfter, locale, staff.organizationTimeZone)}</dd>
          </dl>
        ) : <p className="muted">{t("certs.noAgent")}</p>}
        <ImportAgentForm locale={locale} />
      </section>
      <RegistryPhotosSection
        locale={locale}
        timeZone={staff.organizationTimeZone}
        photos={registry.photos}
        page={{ after: query.after ?? null, next: registry.nextCursor }}
        canSeePhotos={can(staff.role, "biometrics:read")}
        canWrite={can(staff.role, REGISTRY_PHOTO_WRITE)}
        nationalities={organization.enabledNationalities}
      />
      <section className="card stack">
        <h2>{t("certs.ca")}</h2>
        <p><a href="/api/pki/ca.pem" download>ca.pem</a> · <a href="/api/pki/ca.der" download>ca.der</a></p>
        <h3>{t("certs.tsa")}</h3>
        <dl className="facts" data-testid="tsa-settings">
          <dt>{t("certs.tsaMode")}</dt><dd>{config.TSA_URL ? t("certs.tsaExternal") : t("certs.tsaBuiltIn")}</dd>
          {config.TSA_URL && <><dt>TSA_URL</dt><dd><code>{config.TSA_URL}</code></dd></>}
          <dt>{t("certs.tsaEndpoint")}</dt><dd><code>{config.publicUrl}/api/tsa</code></dd>
        </dl>
      </section>
    </div>
  );
}

/** Read when the page is rendered on the server (a dynamic page: every request renders again). */
function isPast(date: Date): boolean {
  return date.getTime() < Date.now();
}
