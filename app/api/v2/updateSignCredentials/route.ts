export const dynamic = "force-dynamic";
export { updateSignCredentialsHandler as POST } from "@/app/api/_stamp/update-sign-credentials-handler";
