import type { AppConfig } from "@/lib/config";
import type { PkiSettings } from "./load-platform-pki";
import { platformToken } from "./platform-token";

export function pkiSettingsOf(config: AppConfig): PkiSettings {
  return { environment: config.APP_ENV, secretKey: config.secretKey, publicUrl: config.publicUrl, token: platformToken(config) };
}
