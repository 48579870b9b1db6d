"use server";

import { headers } from "next/headers";
import { changeStaffPassword } from "@/lib/auth/change-staff-password";
import { clientAddress } from "@/lib/config/client-address";
import { currentStaff } from "@/lib/http/require-staff";
import type { ActionResult } from "@/lib/http/run-staff-action";
import { isAppError } from "@/lib/errors";
import { getServices } from "@/lib/runtime/services";

/** Any signed-in staff member changes their own password; every session of theirs ends. */
export async function changePasswordAction(input: { currentPassword: string; newPassword: string }): Promise<ActionResult> {
  const staff = await currentStaff();
  if (!staff) return { ok: false, message: "Su sesión terminó; ingrese de nuevo." };
  const { config, db } = await getServices();
  const address = clientAddress({ headers: await headers() }, config.trustedProxies);
  try {
    await changeStaffPassword({ userId: staff.userId, currentPassword: String(input.currentPassword ?? ""), newPassword: String(input.newPassword ?? ""), address }, db);
    return { ok: true, message: "Contraseña cambiada. Ingrese de nuevo con la nueva contraseña." };
  } catch (error) {
    if (isAppError(error)) return { ok: false, message: error.message, field: error.field };
    throw error;
  }
}
