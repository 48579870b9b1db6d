import { requireStaff } from "@/lib/http/require-staff";
import { getTranslator } from "@/lib/i18n/get-translator";
import { StaffNav } from "@/components/layout/staff-nav";
import { LanguageSwitch } from "@/components/layout/language-switch";
import { config } from "@/lib/config";

export const dynamic = "force-dynamic";

export default async function StaffLayout({ children }: { children: React.ReactNode }) {
  const staff = await requireStaff();
  const { t } = await getTranslator();
  const quality = config().APP_ENV === "quality";
  return (
    <div className="shell">
      <StaffNav t={t} role={staff.role} isPlatformAdmin={staff.isPlatformAdmin} />
      <main className="shell-main">
        <div className="topbar">
          <span className="muted" data-testid="signed-in-as">
            {staff.email} · {staff.organizationDomain}
          </span>
          {quality && <span className="env-banner">{t("home.quality")}</span>}
          <LanguageSwitch />
        </div>
        {children}
      </main>
    </div>
  );
}
