import { z } from "zod";
import { credentialRoles } from "@/db/schema";

export const ZCreateCredential = z.object({
  organizationId: z.uuid(),
  clientname: z.email("clientname debe tener forma de e-mail").trim().toLowerCase(),
  secret: z.string().min(8, "el secreto debe tener al menos 8 caracteres").max(200),
  role: z.enum(credentialRoles),
});
export type CreateCredentialInput = z.input<typeof ZCreateCredential>;

/** What a person types in the dashboard; the organization comes from the session and the secret is generated. */
export const ZNewCredential = ZCreateCredential.pick({ clientname: true, role: true });
