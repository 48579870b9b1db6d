import { z } from "zod";
import { staffRoles } from "@/db/schema";
import { ZPassword } from "@/lib/auth/password-policy";

export const ZDomain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/, "dominio inválido (ejemplo: empresa.pe)");

export const ZCreateOrganization = z.object({
  domain: ZDomain,
  displayName: z.string().trim().min(1).max(200).optional(),
  ownerEmail: z.email().trim().toLowerCase(),
  ownerPassword: ZPassword,
  platformAdmin: z.boolean().default(false),
});
export type CreateOrganizationInput = z.input<typeof ZCreateOrganization>;

export const ZCreateStaffUser = z.object({
  organizationId: z.uuid(),
  email: z.email().trim().toLowerCase(),
  password: ZPassword,
  role: z.enum(staffRoles),
});
export type CreateStaffUserInput = z.input<typeof ZCreateStaffUser>;
