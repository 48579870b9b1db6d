import { handlers } from "@/lib/auth/staff-session";

export const dynamic = "force-dynamic";
export const { GET, POST } = handlers;
