import { z } from "zod";

export const ZStampTokenRequest = z.object({
  email: z.string().trim().min(1, "email es obligatorio").max(320),
  password: z.string().min(1, "password es obligatorio").max(500),
});
