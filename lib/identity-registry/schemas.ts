import { z } from "zod";
import type { Permission } from "@/lib/auth/roles";

/** Who may import names into the organization's registry (API and dashboard ask the same question). */
export const IDENTITY_REGISTRY_WRITE: Permission = "processes:create";

export const MAX_REGISTRY_ROWS = 10_000;

// letters of any script, combining marks, spaces, apostrophes, hyphens and dots: what names are made of
const NAME = /^[\p{L}\p{M}][\p{L}\p{M}' .\-’]*$/u;

const ZName = (field: string) =>
  z
    .string(`${field} es obligatorio`)
    .transform((value) => value.normalize("NFC").replace(/\s+/g, " ").trim())
    .pipe(z.string().min(1, `${field} es obligatorio`).max(100, `${field}: hasta 100 caracteres`).regex(NAME, `${field}: solo letras, espacios, apóstrofos, guiones y puntos`));

/** Given and family names, as `pinfo` carries them (the signer's confirmation and registry rows). */
export const ZPersonNames = z.object({ given_name: ZName("given_name"), family_name: ZName("family_name") });
export type PersonNames = z.infer<typeof ZPersonNames>;
