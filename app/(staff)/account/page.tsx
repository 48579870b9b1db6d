import { requireStaff } from "@/lib/http/require-staff";
import { getTranslator } from "@/lib/i18n/get-translator";
import { ChangePasswordForm } from "@/components/account/change-password-form";

export const dynamic = "force-dynamic";

/** The signed-in staff member's own account: e-mail and password change. */
export default async function AccountPage() {
  const staff = await requireStaff();
  const { locale, t } = await getTranslator();
  return (
    <section className="stack card" style={{ maxWidth: "32rem" }}>
      <h1>{t("account.title")}</h1>
      <p className="muted" data-testid="account-email">{staff.email}</p>
      <ChangePasswordForm locale={locale} />
    </section>
  );
}
