import { loadConfig, type AppConfig } from "./load-config";
import { processSingleton } from "@/lib/process-wide/singleton";

/** The validated configuration, loaded once per process (shared across Next.js bundles via globalThis). */
export function config(): AppConfig {
  return processSingleton("firmaviva.config", loadConfig);
}

export { ConfigError, type AppConfig } from "./load-config";
