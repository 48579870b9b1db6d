import { and, eq, inArray, isNull, ne } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiCredentials, processes, users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { rolePermissions } from "@/lib/auth/roles";
import type { StaffRole } from "@/db/schema";

type Staff = { userId: string; email: string; organizationId: string };

/** Staff roles that may decide identity reviews (identity:review). */
const reviewerRoles = (Object.entries(rolePermissions) as [StaffRole, readonly string[]][]).filter(([, granted]) => granted.includes("identity:review")).map(([role]) => role);

/**
 * Separation of duties (issue 36): whoever created the process (in the dashboard, or through a
 * credential whose secret is their password) may not approve its identity reviews, unless they
 * are the only active staff member of the organization who may review: then the approval goes
 * through, flagged so it is audited and shown on the review.
 */
export async function checkReviewerIndependence(input: { processId: string; staff: Staff }, db: Db): Promise<{ soleReviewerException: boolean }> {
  const [process] = await db
    .select({ createdByName: processes.createdByName, credentialOwner: apiCredentials.passwordOfUserId })
    .from(processes)
    .leftJoin(apiCredentials, eq(processes.createdBy, apiCredentials.id))
    .where(and(eq(processes.id, input.processId), eq(processes.organizationId, input.staff.organizationId)))
    .limit(1);
  if (!process) throw new AppError("NOT_FOUND");
  const isCreator = process.createdByName.toLowerCase() === input.staff.email.toLowerCase() || process.credentialOwner === input.staff.userId;
  if (!isCreator) return { soleReviewerException: false };
  const [other] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.organizationId, input.staff.organizationId), ne(users.id, input.staff.userId), isNull(users.disabledAt), inArray(users.role, reviewerRoles)))
    .limit(1);
  if (other) throw new AppError("FORBIDDEN", "Quien creó el proceso no puede aprobar su revisión de identidad: debe hacerlo otro revisor de la organización.");
  return { soleReviewerException: true };
}
