export const dynamic = "force-dynamic";
export { signPdfHandler as POST } from "@/app/api/_stamp/sign-pdf-handler";
