import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import { AppError } from "@/lib/errors";

/**
 * Suspends or reactivates an organization. Its data is kept; every token and credential checks the
 * status on each call, so a suspension takes effect at the next request.
 */
export async function setOrganizationStatus(domain: string, status: "active" | "suspended", db: Db) {
  const [row] = await db
    .update(organizations)
    .set({ status })
    .where(eq(organizations.domain, domain.trim().toLowerCase()))
    .returning({ id: organizations.id, domain: organizations.domain, status: organizations.status });
  if (!row) throw new AppError("NOT_FOUND", `no existe la organización ${domain}`, "domain");
  return row;
}
