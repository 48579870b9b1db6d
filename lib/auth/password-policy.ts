import commonPasswords from "fxa-common-password-list";
import { z } from "zod";

export const MIN_PASSWORD_LENGTH = 12;

/**
 * One rule for every staff password the platform accepts (bootstrap, CLI, dashboard, resets):
 * at least 12 characters (ASVS 2.1.1) and not one of the 10,000 most common passwords (2.1.7).
 */
export const ZPassword = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `la contraseña debe tener al menos ${MIN_PASSWORD_LENGTH} caracteres`)
  .max(200, "la contraseña es demasiado larga")
  .refine((password) => !commonPasswords.test(password) && !commonPasswords.test(password.toLowerCase()), "la contraseña es demasiado común; elija otra");
