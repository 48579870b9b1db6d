import { processApiComponents, processApiPaths, processApiWebhooks } from "./process-api-paths";
import { stampApiComponents, stampApiPaths } from "./stamp-api-paths";
import type { JsonSchema } from "./schema-from-zod";

/** OpenAPI 3.1 description of the public APIs, served at /api/openapi.json. */
export function buildOpenApiDocument(serverUrl: string): JsonSchema {
  return {
    openapi: "3.1.0",
    info: {
      title: "FirmaViva APIs",
      version: "1.0.0",
      description: "Stamp-signing API v2/v3 (failures are JSON `{success:false, message}`) and signature-process API (failures are short plain text; a 400 names the field in `X-Error-Detail`). See docs/.",
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: { ...stampApiComponents.securitySchemes, ...processApiComponents.securitySchemes },
      schemas: { ...stampApiComponents.schemas, ...processApiComponents.schemas },
      responses: processApiComponents.responses,
    },
    paths: { ...stampApiPaths, ...processApiPaths },
    webhooks: processApiWebhooks,
  };
}
