import type { Db } from "@/db/client";
import { organizations, users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { hashPassword } from "@/lib/auth/password-hash";
import { isUniqueViolation } from "@/db/is-unique-violation";
import { ZCreateOrganization, type CreateOrganizationInput } from "./schemas";

/** Creates an organization together with its first owner, in one transaction. */
export async function createOrganization(input: CreateOrganizationInput, db: Db) {
  const data = ZCreateOrganization.parse(input);
  const passwordHash = await hashPassword(data.ownerPassword);
  try {
    return await db.transaction(async (tx) => {
      const [organization] = await tx
        .insert(organizations)
        .values({ domain: data.domain, displayName: data.displayName ?? data.domain })
        .returning();
      const [owner] = await tx
        .insert(users)
        .values({
          organizationId: organization.id,
          email: data.ownerEmail,
          passwordHash,
          role: "owner",
          isPlatformAdmin: data.platformAdmin,
        })
        .returning({ id: users.id, email: users.email, role: users.role });
      return { organization, owner };
    });
  } catch (error) {
    if (isUniqueViolation(error, "organizations_domain_key")) {
      throw new AppError("CONFLICT", `la organización ${data.domain} ya existe`, "domain");
    }
    if (isUniqueViolation(error, "users_email_key")) {
      throw new AppError("CONFLICT", `el usuario ${data.ownerEmail} ya existe`, "ownerEmail");
    }
    throw error;
  }
}
