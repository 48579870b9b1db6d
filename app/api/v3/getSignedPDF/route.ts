export const dynamic = "force-dynamic";
export { getSignedPdfHandler as GET } from "@/app/api/_stamp/get-signed-pdf-handler";
