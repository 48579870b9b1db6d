import { AppError } from "@/lib/errors";
import { readTextBody } from "./parse-input";
import { parseMultipart, type MultipartBody, type MultipartLimits } from "./parse-multipart";

/**
 * Bodies the process API accepts for modify, reject, notify and labels: multipart/form-data (the
 * documented form), urlencoded, or JSON. JSON values stay typed; form values are text.
 */
export async function readFormFields(request: Request, limits: MultipartLimits): Promise<{ fields: Record<string, unknown>; files: MultipartBody["files"] }> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (type.startsWith("multipart/form-data")) return parseMultipart(request, limits);
  if (type.startsWith("application/x-www-form-urlencoded")) {
    return { fields: Object.fromEntries(new URLSearchParams(await readTextBody(request))), files: [] };
  }
  if (type.startsWith("application/json") || type === "") {
    const text = await readTextBody(request);
    if (!text.trim()) return { fields: {}, files: [] };
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new AppError("VALIDATION", "el cuerpo debe ser JSON válido", "body");
    }
    if (!body || typeof body !== "object" || Array.isArray(body)) throw new AppError("VALIDATION", "el cuerpo debe ser un objeto JSON", "body");
    return { fields: body as Record<string, unknown>, files: [] };
  }
  throw new AppError("VALIDATION", "se esperaba multipart/form-data o JSON", "content-type");
}
