import type { ProcessCaller } from "./verify-process-token";
import type { StaffIdentity } from "./authenticate-staff";

/**
 * A staff member acting in the dashboard, shaped like a process-API caller so the same use cases
 * serve both. Labels and timeline entries are attributed to the staff e-mail; no credential row.
 */
export function staffProcessCaller(staff: StaffIdentity): ProcessCaller {
  return {
    credentialId: null,
    clientname: staff.email,
    role: staff.role === "owner" ? "admin" : staff.role,
    organizationId: staff.organizationId,
    organizationDomain: staff.organizationDomain,
  };
}
