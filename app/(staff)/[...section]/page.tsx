import { notFound } from "next/navigation";
import { getTranslator } from "@/lib/i18n/get-translator";
import { staffSections } from "@/components/layout/staff-nav";

/** Sections of the navigation whose pages have not been built yet say so plainly. */
export default async function UpcomingSection({ params }: { params: Promise<{ section: string[] }> }) {
  const { section } = await params;
  const entry = staffSections.find((s) => s.href === `/${section.join("/")}`);
  if (!entry) notFound();
  const { t } = await getTranslator();
  return (
    <div className="stack">
      <h1>{t(entry.label)}</h1>
      <p className="card">{t("soon.text")}</p>
    </div>
  );
}
