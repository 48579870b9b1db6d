import { requireStaff } from "@/lib/auth/require-staff";
import { getTranslator } from "@/lib/i18n/get-translator";
import { config } from "@/lib/config";
import { roleName } from "@/lib/i18n/role-names";

export default async function HomePage() {
  const staff = await requireStaff();
  const { t } = await getTranslator();
  return (
    <div className="stack">
      <h1>{t("home.title")}</h1>
      <section className="card">
        <dl className="facts">
          <dt>{t("home.organization")}</dt>
          <dd>{staff.organizationDomain}</dd>
          <dt>{t("home.role")}</dt>
          <dd>{roleName(staff.role, t)}</dd>
          <dt>{t("home.environment")}</dt>
          <dd>{config().APP_ENV === "quality" ? t("home.quality") : t("home.production")}</dd>
        </dl>
      </section>
      <section className="card">
        <h2>{t("home.apiTitle")}</h2>
        <p>{t("home.apiText")}</p>
      </section>
    </div>
  );
}
