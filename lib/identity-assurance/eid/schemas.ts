import { z } from "zod";
import { isLoopbackIssuer } from "./loopback-issuer";

const claimName = (field: string) =>
  z
    .string()
    .trim()
    .min(1, `${field} es obligatorio`)
    .max(100, `${field} admite hasta 100 caracteres`)
    .regex(/^[A-Za-z0-9_.:-]+$/, `${field} debe ser el nombre de un claim (letras, números, _ . : -)`);

/**
 * The organization's OpenID Connect identity provider, as the dashboard edits it. An empty
 * clientSecret keeps the stored one (it is never shown back) while the issuer stays the same; the
 * first save and every change of issuer must give one (the secret is never sent to a new issuer).
 */
export const ZIdentityProviderSettings = z.object({
  displayName: z.string().trim().min(1, "displayName es obligatorio").max(80, "displayName admite hasta 80 caracteres"),
  issuer: z
    .url({ protocol: /^https?$/, message: "issuer debe ser una URL http(s)" })
    .max(500, "issuer admite hasta 500 caracteres")
    .refine((value) => !new URL(value).search && !new URL(value).hash, "issuer no lleva parámetros ni fragmento")
    // plain http only reaches a provider on this machine (and only where private targets are allowed: saveIdentityProvider)
    .refine((value) => value.startsWith("https:") || isLoopbackIssuer(value), "issuer debe usar https"),
  clientId: z.string().trim().min(1, "clientId es obligatorio").max(200, "clientId admite hasta 200 caracteres"),
  clientSecret: z.string().max(500, "clientSecret admite hasta 500 caracteres").default(""),
  scopes: z
    .string()
    .trim()
    .max(300, "scopes admite hasta 300 caracteres")
    .regex(/^[\x21\x23-\x5B\x5D-\x7E ]*$/, "scopes: caracteres no permitidos")
    .transform((value) => [...new Set(["openid", ...value.split(/\s+/).filter(Boolean)])].join(" ")),
  documentNumberClaim: claimName("documentNumberClaim"),
  givenNameClaim: claimName("givenNameClaim"),
  familyNameClaim: claimName("familyNameClaim"),
});
export type IdentityProviderSettingsInput = z.input<typeof ZIdentityProviderSettings>;
export type IdentityProviderSettings = z.output<typeof ZIdentityProviderSettings>;
