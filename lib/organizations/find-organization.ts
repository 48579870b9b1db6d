import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import { AppError } from "@/lib/errors";

export async function findOrganizationByDomain(domain: string, db: Db) {
  const [row] = await db.select().from(organizations).where(eq(organizations.domain, domain.trim().toLowerCase())).limit(1);
  if (!row) throw new AppError("NOT_FOUND", `no existe la organización ${domain}`, "org");
  return row;
}
