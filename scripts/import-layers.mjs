// The layers of the code base, lowest first (docs/architecture.md, "What may import what"). eslint's
// import/no-restricted-paths gets one zone per layer: its files may not import any higher layer.
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

/** Engines and plain building blocks: no knowledge of requests, the database's rows of a domain, or the pools. */
export const FOUNDATION = ["lib/errors.ts", "lib/engine-errors.ts", "lib/crypto", "lib/images", "lib/blob-store", "lib/pdf", "lib/pki", "lib/tsa", "lib/faces", "lib/id-documents", "lib/config", "lib/metrics", "lib/process-wide", "lib/request-reading", "lib/outbound-http"];
/** Infrastructure: the worker pools, fair queue, timing, logging, request context, process-wide services. */
export const RUNTIME = ["lib/runtime"];
/** The request boundary: route wrappers (auth, error mapping, request context) over the use cases. */
export const BOUNDARY = ["lib/http"];
/** The composition root: the worker's task table, job handlers, server start, background work. */
export const SERVER = ["lib/server"];
/** What Next.js and the browser load: pages, route handlers, components, the entry points. */
export const APP = ["app", "components", "instrumentation.ts", "proxy.ts"];

/** Every other lib/ folder is a domain (use cases), between the runtime and the composition root. */
export function domainFolders() {
  const taken = new Set([...FOUNDATION, ...RUNTIME, ...BOUNDARY, ...SERVER]);
  return fs
    .readdirSync(path.join(root, "lib"), { withFileTypes: true })
    .map((entry) => `lib/${entry.name}`)
    .filter((name) => !taken.has(name) && (fs.statSync(path.join(root, name)).isDirectory() || /\.tsx?$/.test(name)));
}

/** The layers, lowest first. */
export function layers() {
  return [
    { name: "foundation", paths: FOUNDATION },
    { name: "runtime", paths: RUNTIME },
    { name: "domain", paths: domainFolders() },
    { name: "boundary", paths: BOUNDARY },
    { name: "server", paths: SERVER },
    { name: "app", paths: APP },
  ];
}

/** import/no-restricted-paths zones: each layer may import its own and lower layers only. */
export function importBoundaryZones() {
  const all = layers();
  return all.slice(0, -1).map((layer, i) => {
    const higher = all.slice(i + 1);
    return {
      target: layer.paths.map((p) => `./${p}`),
      from: higher.flatMap((h) => h.paths).map((p) => `./${p}`),
      message: `the ${layer.name} layer may not import a higher layer (${higher.map((h) => h.name).join(", ")}): see docs/architecture.md, "What may import what"`,
    };
  });
}
