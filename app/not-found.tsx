import Link from "next/link";
import { getTranslator } from "@/lib/i18n/get-translator";

/** Unknown addresses, and objects of another organization, get the same plain page in the visitor's language. */
export default async function NotFound() {
  const { t } = await getTranslator();
  return (
    <main className="stack" style={{ maxWidth: "32rem", margin: "4rem auto", padding: "0 1rem" }}>
      <h1>{t("notFound.title")}</h1>
      <p>{t("notFound.text")}</p>
      <p>
        <Link href="/" className="button">
          {t("notFound.home")}
        </Link>
      </p>
    </main>
  );
}
