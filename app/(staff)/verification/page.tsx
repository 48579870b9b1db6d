import { requireStaff } from "@/lib/http/require-staff";
import { getLocale } from "@/lib/i18n/get-translator";
import { VerifyUploadForm } from "@/components/verification/verify-upload-form";

export const dynamic = "force-dynamic";

/** The public verification page inside the staff layout, so staff keep their navigation. */
export default async function StaffVerificationPage() {
  const staff = await requireStaff();
  const locale = await getLocale();
  return (
    <div className="card stack">
      <VerifyUploadForm locale={locale} timeZone={staff.organizationTimeZone} />
    </div>
  );
}
