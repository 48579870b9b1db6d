import { loadConfig, type AppConfig } from "./load-config";

const CONFIG = Symbol.for("firmaviva.config");
type Holder = { [CONFIG]?: AppConfig };

/** The validated configuration, loaded once per process (shared across Next.js bundles via globalThis). */
export function config(): AppConfig {
  const holder = globalThis as Holder;
  holder[CONFIG] ??= loadConfig();
  return holder[CONFIG];
}

export { ConfigError, type AppConfig } from "./load-config";
