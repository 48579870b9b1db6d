import { z } from "zod";

/** One rule for every password the platform accepts (bootstrap, CLI, dashboard). */
export const ZPassword = z
  .string()
  .min(8, "la contraseña debe tener al menos 8 caracteres")
  .max(200, "la contraseña es demasiado larga");
