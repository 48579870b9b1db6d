"use server";

import { signOut } from "@/lib/http/staff-session";
import { currentSessionId } from "@/lib/http/require-staff";
import { revokeStaffSession } from "@/lib/auth/staff-sessions";
import { getServices } from "@/lib/runtime/services";

/** The staff menu's "sign out": ends the server-side session first, so the cookie is dead even if it was copied. */
export async function signOutAction() {
  const sessionId = await currentSessionId();
  if (sessionId) await revokeStaffSession(sessionId, (await getServices()).db);
  await signOut({ redirectTo: "/login" });
}
