#!/usr/bin/env node
// Serves the built application: `node scripts/serve.mjs [-p port] [-H host]`, what `npm start` runs
// after building. Next answers every request, except the hot stamp-signing API routes, which run
// their own compiled handlers straight from node:http (scripts/direct-api-routes.mjs).
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { configHeadersByRoute, directApiRoutes } from "./direct-api-routes.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const option = (flag, fallback) => {
  const at = process.argv.indexOf(flag);
  return at === -1 ? fallback : process.argv[at + 1];
};
const port = Number(option("-p", process.env.PORT || "3000"));
// as `next start`: all interfaces unless -H names one (not $HOSTNAME, which shells and containers set to the machine's name)
const hostname = option("-H", undefined);
// this entry serves the build only (`next dev` is `npm run dev`)
process.env.NODE_ENV = "production";
process.env.NEXT_TELEMETRY_DISABLED ??= "1";

const next = createRequire(path.join(root, "package.json"))("next");
const app = next({ dev: false, dir: root, hostname: hostname ?? "localhost", port });
const nextHandler = app.getRequestHandler();
await app.prepare();

const origin = `http://${hostname && hostname.includes(":") ? `[${hostname}]` : (hostname ?? "localhost")}:${port}`;
const server = http.createServer(directApiRoutes({ root, nextHandler, headersByRoute: await configHeadersByRoute(root), origin, port }));
server.listen(port, hostname, () => console.log(`Ready on ${origin}`));
server.on("error", (error) => {
  console.error(error.message);
  process.exit(1);
});

// as `next start`: stop taking connections and exit with the signal's code
for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]]) {
  process.once(signal, () => {
    server.close();
    process.exit(code);
  });
}
