import { NextRequest } from "next/server";
import { handlers } from "@/lib/http/staff-session";
import { withPublic } from "@/lib/http/with-api-auth";
import { MAX_TEXT_BODY_BYTES } from "@/lib/request-reading/parse-input";
import { readRequestBytes } from "@/lib/request-reading/read-request-bytes";

export const dynamic = "force-dynamic";
export const { GET } = handlers;

/** next-auth reads whole bodies: it gets this one only once it is known to fit the 1 MB limit (413 past it). */
export const POST = withPublic("json", async (request) => {
  const body = await readRequestBytes(request, MAX_TEXT_BODY_BYTES);
  return handlers.POST(new NextRequest(request.url, { method: "POST", headers: request.headers, body: Buffer.from(body) }));
});
