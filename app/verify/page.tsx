import { getLocale } from "@/lib/i18n/get-translator";
import { VerifyUploadForm } from "@/components/verification/verify-upload-form";

export const dynamic = "force-dynamic";

/** Public page: anyone uploads a signed PDF (ours or another tool's) and reads a report of its signatures. */
export default async function VerifyPdfPage() {
  const locale = await getLocale();
  return (
    <main className="auth-page">
      <div className="card auth-card stack" style={{ maxWidth: "40rem" }}>
        <span className="brand">FirmaViva</span>
        <VerifyUploadForm locale={locale} />
      </div>
    </main>
  );
}
