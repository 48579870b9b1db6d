import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { hashPassword } from "@/lib/auth/password-hash";
import { isUniqueViolation } from "@/db/is-unique-violation";
import { ZCreateStaffUser, type CreateStaffUserInput } from "./schemas";

/** Adds a staff user with a role to an organization. */
export async function createStaffUser(input: CreateStaffUserInput, db: Db) {
  const data = ZCreateStaffUser.parse(input);
  const passwordHash = await hashPassword(data.password);
  try {
    const [row] = await db
      .insert(users)
      .values({ organizationId: data.organizationId, email: data.email, passwordHash, role: data.role })
      .returning({ id: users.id, email: users.email, role: users.role });
    return row;
  } catch (error) {
    if (isUniqueViolation(error, "users_email_key")) throw new AppError("CONFLICT", `el usuario ${data.email} ya existe`, "email");
    throw error;
  }
}
