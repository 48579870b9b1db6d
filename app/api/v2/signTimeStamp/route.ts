export const dynamic = "force-dynamic";
export { signTimeStampHandler as POST } from "@/app/api/_stamp/sign-time-stamp-handler";
