import type { z } from "zod";
import { AppError } from "@/lib/errors";

/** Validates input against a zod schema; the first issue names the offending field. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue.path.map(String).join(".") || undefined;
  throw new AppError("VALIDATION", field ? `${field}: ${issue.message}` : issue.message, field);
}

/** Reads a JSON body (refusing anything else) and validates it. */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw new AppError("VALIDATION", "el cuerpo debe ser JSON válido", "body");
  }
  return parseWith(schema, body);
}

/** The token of an `Authorization: <scheme> <token>` header, for any of the accepted schemes. */
export function readAuthorization(request: Request, schemes: string[]): string | null {
  const header = request.headers.get("authorization") ?? "";
  const match = /^([A-Za-z-]+)\s+(\S+)\s*$/.exec(header);
  if (!match || !schemes.includes(match[1].toLowerCase())) return null;
  return match[2];
}
