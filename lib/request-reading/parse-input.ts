import type { z } from "zod";
import { AppError } from "@/lib/errors";
import { readRequestBytes } from "./read-request-bytes";

/** JSON and urlencoded bodies are small by nature; anything larger is refused before it is read whole. */
export const MAX_TEXT_BODY_BYTES = 1024 * 1024;

// C0 controls (NUL included) and DEL; tab, line feed and carriage return are ordinary text
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const MAX_WALK_DEPTH = 16;

/** The path of the first string (or key) in `input` holding a control character, if any. */
function findControlCharacter(input: unknown, path: string[] = [], depth = 0): string | undefined {
  if (typeof input === "string") return CONTROL_CHARACTERS.test(input) ? path.join(".") || "body" : undefined;
  if (depth > MAX_WALK_DEPTH || input === null || typeof input !== "object") return undefined;
  for (const [key, value] of Object.entries(input)) {
    if (CONTROL_CHARACTERS.test(key)) return [...path, "(key)"].join(".");
    const found = findControlCharacter(value, [...path, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** Validates input against a zod schema; the first issue names the offending field. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  // a NUL reaching the database is a 500 there; here it is the client's mistake, named
  const controlled = findControlCharacter(input);
  if (controlled) throw new AppError("VALIDATION", `${controlled}: contiene caracteres de control no permitidos`, controlled);
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue.path.map(String).join(".") || undefined;
  throw new AppError("VALIDATION", field ? `${field}: ${issue.message}` : issue.message, field);
}

/** A text body of at most MAX_TEXT_BODY_BYTES (413 past it, counted on the bytes received), as UTF-8. */
export async function readTextBody(request: Request): Promise<string> {
  const bytes = await readRequestBytes(request, MAX_TEXT_BODY_BYTES);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError("VALIDATION", "el cuerpo no es texto UTF-8 válido", "body");
  }
}

/** A bounded JSON body, or undefined when it is not JSON. */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await readTextBody(request);
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Reads a JSON body (refusing anything else) and validates it. */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const body = await readJsonBody(request);
  if (body === undefined) throw new AppError("VALIDATION", "el cuerpo debe ser JSON válido", "body");
  return parseWith(schema, body);
}

/** The token of an `Authorization: <scheme> <token>` header, for any of the accepted schemes. */
export function readAuthorization(request: Request, schemes: string[]): string | null {
  const header = request.headers.get("authorization") ?? "";
  const match = /^([A-Za-z-]+)\s+(\S+)\s*$/.exec(header);
  if (!match || !schemes.includes(match[1].toLowerCase())) return null;
  return match[2];
}
