import { cookies } from "next/headers";
import { getTranslator } from "@/lib/i18n/get-translator";

async function switchLanguage(formData: FormData) {
  "use server";
  const next = formData.get("lang") === "en" ? "en" : "es";
  (await cookies()).set("lang", next, { path: "/", maxAge: 60 * 60 * 24 * 365, sameSite: "lax" });
}

/** A plain form, so switching language works without JavaScript too. */
export async function LanguageSwitch() {
  const { locale, t } = await getTranslator();
  return (
    <form action={switchLanguage}>
      <input type="hidden" name="lang" value={locale === "es" ? "en" : "es"} />
      <button type="submit" className="link-button" lang={locale === "es" ? "en" : "es"}>
        {t("lang.switch")}
      </button>
    </form>
  );
}
