import { redirect } from "next/navigation";
import { currentStaff } from "@/lib/http/require-staff";
import { getTranslator } from "@/lib/i18n/get-translator";
import { LoginForm } from "@/components/auth/login-form";
import { LanguageSwitch } from "@/components/layout/language-switch";

export const dynamic = "force-dynamic";

export default async function LoginPage() {
  if (await currentStaff()) redirect("/");
  const { t } = await getTranslator();
  return (
    <main className="auth-page">
      <div className="card auth-card stack">
        <div className="topbar">
          <span className="brand">{t("app.name")}</span>
          <LanguageSwitch />
        </div>
        <h1>{t("login.title")}</h1>
        <LoginForm
          labels={{
            email: t("login.email"),
            password: t("login.password"),
            submit: t("login.submit"),
            submitting: t("login.submitting"),
            invalid: t("login.invalid"),
            required: t("login.required"),
          }}
        />
      </div>
    </main>
  );
}
