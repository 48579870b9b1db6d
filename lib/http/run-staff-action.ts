import { isAppError } from "@/lib/errors";
import { getServices, type Services } from "@/lib/runtime/services";
import type { StaffIdentity } from "@/lib/auth/authenticate-staff";
import { currentStaff } from "@/lib/http/require-staff";
import { can, type Permission } from "@/lib/auth/roles";

export type ActionResult<T = undefined> = { ok: true; message: string; data?: T } | { ok: false; message: string; field?: string };

/**
 * Server actions of the dashboard: the session and the permission are checked again on every call
 * (a page that hid a button proves nothing), and expected failures come back as a message.
 */
export async function runStaffAction<T>(
  permission: Permission,
  work: (staff: StaffIdentity, services: Services) => Promise<{ message: string; data?: T }>,
): Promise<ActionResult<T>> {
  const staff = await currentStaff();
  if (!staff) return { ok: false, message: "Su sesión terminó; ingrese de nuevo." };
  if (!can(staff.role, permission)) return { ok: false, message: "No tiene permiso para esta operación." };
  try {
    const outcome = await work(staff, await getServices());
    return { ok: true, ...outcome };
  } catch (error) {
    if (isAppError(error)) return { ok: false, message: error.message === error.code ? describe(error.code) : error.message, field: error.field };
    throw error;
  }
}

function describe(code: string): string {
  if (code === "NOT_FOUND") return "No encontrado.";
  if (code === "FORBIDDEN") return "La operación no está permitida en este estado.";
  return "No se pudo completar la operación.";
}
