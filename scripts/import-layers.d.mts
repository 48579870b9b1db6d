// Types of import-layers.mjs, read by eslint.config.mjs and by scripts/import-graph.test.ts.
export const FOUNDATION: string[];
export const RUNTIME: string[];
export const BOUNDARY: string[];
export const SERVER: string[];
export const APP: string[];
export function domainFolders(): string[];
export function layers(): { name: string; paths: string[] }[];
export function importBoundaryZones(): { target: string[]; from: string[]; message: string }[];
