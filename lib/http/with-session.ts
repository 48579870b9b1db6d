import type { StaffIdentity } from "@/lib/auth/authenticate-staff";
import { currentStaff } from "@/lib/http/require-staff";
import { can, type Permission } from "@/lib/auth/roles";
import { AppError } from "@/lib/errors";
import { withPublic } from "./with-api-auth";
import { checkSameOrigin } from "./check-same-origin";
import type { Services } from "@/lib/runtime/services";

type Handler = (request: Request, context: { staff: StaffIdentity; services: Services; params: Record<string, string | string[]> }) => Promise<Response>;

/**
 * Dashboard route handlers (downloads, uploads): the next-auth session cookie plus a permission; JSON
 * errors. A state-changing request from another site's page is refused before the cookie is read.
 */
export function withSession(permission: Permission, handler: Handler) {
  return withPublic("json", async (request, context) => {
    checkSameOrigin(request, context.services.config.PUBLIC_URL);
    const staff = await currentStaff();
    if (!staff) throw new AppError("UNAUTHORIZED");
    if (!can(staff.role, permission)) throw new AppError("FORBIDDEN");
    return handler(request, { staff, services: context.services, params: context.params });
  });
}
