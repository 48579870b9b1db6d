import { z } from "zod";
import { credentialRoles } from "@/db/schema";
import { grantablePermissions } from "@/lib/auth/roles";

export const ZCreateCredential = z.object({
  organizationId: z.uuid(),
  clientname: z.email("clientname debe tener forma de e-mail").trim().toLowerCase(),
  secret: z.string().min(8, "el secreto debe tener al menos 8 caracteres").max(200),
  role: z.enum(credentialRoles),
  /** Beyond the role: today only identity:registry (lib/auth/roles.ts), granted by someone who holds it. */
  grants: z.array(z.enum(grantablePermissions)).max(grantablePermissions.length).default([]),
});
export type CreateCredentialInput = z.input<typeof ZCreateCredential>;

/** What a person types in the dashboard; the organization comes from the session and the secret is generated. */
export const ZNewCredential = ZCreateCredential.pick({ clientname: true, role: true, grants: true });

/** A credential's role and grants, as edited in the dashboard. */
export const ZCredentialAccess = z.object({
  credentialId: z.uuid(),
  role: z.enum(credentialRoles),
  // absent keeps the credential's grants: a role change alone never withdraws one
  grants: z.array(z.enum(grantablePermissions)).max(grantablePermissions.length).optional(),
});
