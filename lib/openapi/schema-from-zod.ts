import { z } from "zod";

export type JsonSchema = Record<string, unknown>;
type ObjectSchema = { properties: Record<string, JsonSchema>; required?: string[] };

// The handlers parse with these same schemas; the document is generated from them, never by hand.
export function toSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  return rest;
}

export const binary = { type: "string", format: "binary" };

type FilePart = { description: string; required?: boolean; repeated?: boolean };

/** Multipart schema: the file parts (validated outside zod) plus the text fields of `fields`. */
export function multipartWithFiles(fields: z.ZodType, files: Record<string, FilePart>): JsonSchema {
  const schema = toSchema(fields) as Partial<ObjectSchema>;
  const fileSchema = (part: FilePart) => (part.repeated ? { type: "array", items: binary, minItems: part.required ? 1 : 0, description: part.description } : { ...binary, description: part.description });
  return {
    type: "object",
    properties: { ...Object.fromEntries(Object.entries(files).map(([name, part]) => [name, fileSchema(part)])), ...schema.properties },
    required: [...Object.entries(files).filter(([, part]) => part.required).map(([name]) => name), ...(schema.required ?? [])],
  };
}

/** One parameter per property; `asJson` ones travel as JSON text, so they are described by `content`. */
export function queryParameters(query: z.ZodType, asJson: string[] = []): JsonSchema[] {
  const { properties, required = [] } = toSchema(query) as ObjectSchema;
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: "query",
    required: required.includes(name),
    ...(asJson.includes(name) ? { content: { "application/json": { schema } } } : { schema }),
  }));
}
