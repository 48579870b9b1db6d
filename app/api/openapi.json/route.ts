import { withPublic } from "@/lib/http/with-api-auth";
import { buildOpenApiDocument } from "@/lib/openapi/build-openapi-document";

export const dynamic = "force-dynamic";

export const GET = withPublic("json", async (_request, { services }) => Response.json(buildOpenApiDocument(services.config.publicUrl)));
