// Types of check-debian-packages.mjs, a plain script that npm test runs before anything is built.
export function readPackageList(file?: string): string[];
export function findMissingPackages(packages: string[], env?: NodeJS.ProcessEnv): string[];
export function installCommand(missing: string[]): string;
export function ensureDebianPackages(options?: { env?: NodeJS.ProcessEnv; isRoot?: boolean; log?: Pick<Console, "log" | "error" | "warn"> }): boolean;
