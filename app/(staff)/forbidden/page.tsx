import Link from "next/link";
import { getTranslator } from "@/lib/i18n/get-translator";

export default async function ForbiddenPage() {
  const { t } = await getTranslator();
  return (
    <div className="stack">
      <h1>{t("forbidden.title")}</h1>
      <p className="alert" role="alert">{t("forbidden.text")}</p>
      <Link href="/">{t("nav.home")}</Link>
    </div>
  );
}
