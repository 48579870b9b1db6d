export const dynamic = "force-dynamic";
export { importAgentCertificateHandler as POST } from "@/app/api/_stamp/import-agent-certificate-handler";
