import fs from "node:fs/promises";
import path from "node:path";

export const dynamic = "force-static";

// The API reference renderer (@scalar/api-reference's self-contained browser bundle), served by
// this server: installations without internet access need no CDN.
const BUNDLE = path.join(process.cwd(), "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js");

let bundle: Promise<Buffer> | null = null;

export async function GET() {
  bundle ??= fs.readFile(BUNDLE);
  const body = new Uint8Array(await bundle);
  return new Response(body, {
    headers: {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=86400",
      "x-content-type-options": "nosniff",
    },
  });
}
