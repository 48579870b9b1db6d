export const dynamic = "force-dynamic";
export { enrollCertificateHolderHandler as POST } from "@/app/api/_stamp/enroll-certificate-holder-handler";
