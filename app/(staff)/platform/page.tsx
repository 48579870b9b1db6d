import { requirePlatformAdmin } from "@/lib/http/require-platform-admin";
import { getServices } from "@/lib/runtime/services";
import { listOrganizations } from "@/lib/organizations/list-organizations";
import { CreateOrganizationForm } from "@/components/platform/create-organization-form";
import { OrganizationStatusButton } from "@/components/platform/organization-status-button";
import { PrivateCallbacksButton } from "@/components/platform/private-callbacks-button";

export const dynamic = "force-dynamic";

export default async function PlatformPage() {
  await requirePlatformAdmin();
  const { db } = await getServices();
  const organizations = await listOrganizations(db);
  return (
    <div className="stack">
      <h1>Plataforma</h1>
      <section className="card">
        <h2>Organizaciones</h2>
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr><th>Dominio</th><th>Nombre</th><th>Estado</th><th>Personal</th><th>Callbacks a red privada</th><th><span className="visually-hidden">Acciones</span></th></tr>
            </thead>
            <tbody>
              {organizations.map((o) => (
                <tr key={o.domain} data-testid={`org-${o.domain}`}>
                  <td>{o.domain}</td>
                  <td>{o.displayName}</td>
                  <td><span className={`badge badge-${o.status}`}>{o.status === "active" ? "Activa" : "Suspendida"}</span></td>
                  <td>{o.staff}</td>
                  <td><PrivateCallbacksButton domain={o.domain} allowed={o.allowPrivateCallbacks} /></td>
                  <td><OrganizationStatusButton domain={o.domain} status={o.status} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <CreateOrganizationForm />
    </div>
  );
}
