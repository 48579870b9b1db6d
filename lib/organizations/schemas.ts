import { z } from "zod";
import { staffRoles } from "@/db/schema";
import { ZPassword } from "@/lib/auth/password-policy";
import { nationalities } from "@/lib/identity-registry/check-national-id";
import { isKnownTimeZone } from "@/lib/i18n/time-zones";

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

/** Removing a staff member; `reassign` names credentials they created that the owner keeps (new secrets). */
export const ZStaffRemoval = z.object({
  userId: z.uuid(),
  reassign: z.array(z.uuid()).max(100).default([]),
});

/**
 * The owner's settings. Strict: a request that also names `allowPrivateCallbacks` (the SSRF guard,
 * a platform decision) is refused as a whole, not silently trimmed.
 */
export const ZOrganizationSettings = z.strictObject({
  linkMode: z.enum(["shared", "per-signer"]),
  requireApproval: z.boolean(),
  enabledNationalities: z.array(z.enum(nationalities)).min(1, "habilite al menos un tipo de documento"),
  timeZone: z.string().trim().max(64).refine(isKnownTimeZone, "zona horaria desconocida (ejemplo: America/Lima)"),
  /** Staff review of self-supplied ID photos; on by default, every change audited. */
  identityReviewRequired: z.boolean(),
});
export type OrganizationSettingsInput = z.infer<typeof ZOrganizationSettings>;

/** The platform administrator's switch of one organization's SSRF guard. */
export const ZPrivateCallbacksSwitch = z.strictObject({ domain: ZDomain, allow: z.boolean() });

/** The dashboard's "add staff" form: the organization comes from the session. */
export const ZNewStaffUser = ZCreateStaffUser.pick({ email: true, password: true, role: true });
